/**
 * A client of a Node process's inspector (started with `--inspect=127.0.0.1:0`), for the few calls a
 * benchmark needs of a process it did not write: collect garbage, read the heap. Node's own WebSocket.
 */
export class Inspector {
  private readonly socket: WebSocket;
  private next = 1;
  private readonly pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
      if (message.id !== undefined) this.pending.get(message.id)?.(message);
    });
  }

  /** Connects to the inspector the process announced on stderr ("Debugger listening on ws://…"). */
  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot reach the inspector at ${url}`)), {
        once: true,
      });
    });
    return new Inspector(socket);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => {
      this.pending.set(id, (message) => {
        this.pending.delete(id);
        if (message.error !== undefined) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
    });
  }

  /** The heap in use after a full garbage collection, in bytes. */
  async heapAfterGc(): Promise<number> {
    await this.call("HeapProfiler.collectGarbage");
    const usage = (await this.call("Runtime.getHeapUsage")) as { usedSize: number };
    return usage.usedSize;
  }

  close(): void {
    this.socket.close();
  }
}

/** The inspector's URL from the stderr of a process started with `--inspect`. */
export function inspectorUrl(stderr: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
}
