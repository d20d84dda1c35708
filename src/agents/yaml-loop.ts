/**
 * Whether `value` contains itself: YAML lets an alias name the anchor it sits inside
 * (`permission: &x { bash: *x }`), and the parser then hands back an object that holds itself. Such a
 * value crashes whatever later turns it into JSON (a definition's preview, a child's spec sent to a
 * worker), so front matter holding one is refused where it is read.
 */
export function holdsLoop(value: unknown, inside: Set<object> = new Set()): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (inside.has(value)) return true;
  inside.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  const loops = children.some((child) => holdsLoop(child, inside));
  inside.delete(value);
  return loops;
}
