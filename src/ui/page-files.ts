import { readFile } from "node:fs/promises";

export interface PageFile {
  type: string;
  body: Buffer;
}

/** The page's files, beside this module (copied to dist/ui/page/ by the build, as the prompts are). */
const FILES: Record<string, string> = {
  "/index.html": "text/html; charset=utf-8",
  "/app.js": "text/javascript; charset=utf-8",
  "/style.css": "text/css; charset=utf-8",
};

/** Reads the page's files once: plain HTML, JavaScript and CSS, served as they are (no build step). */
export async function loadPage(): Promise<Map<string, PageFile>> {
  const files = new Map<string, PageFile>();
  for (const [path, type] of Object.entries(FILES)) {
    const body = await readFile(new URL(`./page${path}`, import.meta.url));
    files.set(path, { type, body });
  }
  return files;
}
