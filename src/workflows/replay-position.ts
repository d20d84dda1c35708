/**
 * A call's replay position, as the sandbox's prelude writes it: levels joined by "/", each level an
 * ordinal among the calls of its scope, followed by the branch taken into the next level — ".item" for
 * an item of a `parallel`, ".item.stage" for an item's stage of a `pipeline`, nothing for a nested
 * `workflow()`. "3.1.2/0" is the first call of stage 2 of item 1 of the pipeline at ordinal 3.
 * Journals of version 1 held plain numbers (the order calls were made in); read as ordinals of the
 * script's body they are right for a script without `parallel` or `pipeline`, and elsewhere a key
 * differs and the call runs again.
 */
const POSITION = /^\d+(?:\.\d+){0,2}(?:\/\d+(?:\.\d+){0,2})*$/;

export function isPosition(text: string): boolean {
  return POSITION.test(text);
}

type Level = readonly number[];

function levels(position: string): Level[] {
  return position.split("/").map((level) => level.split(".").map(Number));
}

/**
 * Whether the call at `earlier` may have fed the call at `later`: it came before it in the same scope
 * (or inside something that did), or in an earlier stage of the same pipeline item. Items of one
 * `parallel` or `pipeline` are independent of each other. Calls made side by side in one scope
 * (`Promise.all` of two `agent()`s) count as ordered: a rerun of the first reruns the second, more
 * than needed, never less.
 */
export function mayFeed(earlier: string, later: string): boolean {
  const a = levels(earlier);
  const b = levels(later);
  for (let depth = 0; depth < Math.min(a.length, b.length); depth++) {
    const [ordinalA = 0, itemA, stageA] = a[depth]!;
    const [ordinalB = 0, itemB, stageB] = b[depth]!;
    if (ordinalA !== ordinalB) return ordinalA < ordinalB;
    if (itemA !== itemB) return false;
    if (stageA !== stageB) return (stageA ?? 0) < (stageB ?? 0);
  }
  return false;
}
