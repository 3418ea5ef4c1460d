// Import cycles: strongly connected components (Tarjan, linear time) and a shortest cycle through
// each of their files.

/**
 * The strongly connected components of `graph` (node → successors; successors that are not
 * nodes are ignored), by Tarjan's algorithm without recursion, in linear time.
 */
export function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const nodes = [...graph.keys()];
  const ids = new Map(nodes.map((node, i) => [node, i]));
  const successors = nodes.map((node) =>
    (graph.get(node) ?? []).flatMap((next) => ids.has(next) ? [ids.get(next)!] : [])
  );
  const count = nodes.length;
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack = new Int32Array(count);
  const workNode = new Int32Array(count);
  const workEdge = new Int32Array(count);
  const components: string[][] = [];
  let counter = 0;
  let top = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    const enter = (node: number) => {
      index[node] = low[node] = counter++;
      stack[top++] = node;
      onStack[node] = 1;
      workNode[depth] = node;
      workEdge[depth++] = 0;
    };
    enter(root);
    while (depth > 0) {
      const node = workNode[depth - 1]!;
      const edges = successors[node]!;
      if (workEdge[depth - 1]! < edges.length) {
        const next = edges[workEdge[depth - 1]!++]!;
        if (index[next] === -1) enter(next);
        else if (onStack[next]) low[node] = Math.min(low[node]!, index[next]!);
        continue;
      }
      depth--;
      if (depth > 0) {
        const parent = workNode[depth - 1]!;
        low[parent] = Math.min(low[parent]!, low[node]!);
      }
      if (low[node] === index[node]) {
        const component: string[] = [];
        let member: number;
        do {
          member = stack[--top]!;
          onStack[member] = 0;
          component.push(nodes[member]!);
        } while (member !== node);
        components.push(component);
      }
    }
  }
  return components;
}

/** One import cycle and the group of files that reach each other it lies in. */
export interface Cycle {
  /** The cycle as a path that ends where it starts: `[a, b, a]`. */
  path: string[];
  /** Every node of its strongly connected component, sorted. */
  group: string[];
}

/** A shortest cycle through `start` that stays inside `members`, as `[start, …, start]`. */
function shortestCycle(
  graph: ReadonlyMap<string, readonly string[]>,
  start: string,
  members: ReadonlySet<string>,
): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const back = [start];
        for (let at = node; at !== start; at = parent.get(at)!) back.push(at);
        return [...back, start].reverse();
      }
      if (!members.has(next) || parent.has(next)) continue;
      parent.set(next, node);
      queue.push(next);
    }
  }
  return [];
}

/**
 * Finds the import cycles of `graph`. Each strongly connected component with a cycle (two or
 * more nodes, or a node importing itself) yields the shortest cycle through its first node by
 * name, then through its first node not on a cycle yet, and so on until every node of the
 * component is on one: every file in a cycle shows up, with few lines. Finding the components
 * is linear; each cycle shown costs one breadth-first search inside its component.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): Cycle[] {
  const cycles: Cycle[] = [];
  for (const component of stronglyConnected(graph)) {
    const group = component.sort();
    const first = group[0]!;
    if (group.length === 1 && !(graph.get(first) ?? []).includes(first)) continue;
    const members = new Set(group);
    const covered = new Set<string>();
    for (const start of group) {
      if (covered.has(start)) continue;
      const path = shortestCycle(graph, start, members);
      for (const node of path) covered.add(node);
      cycles.push({ path, group });
    }
  }
  const key = (cycle: Cycle) => `${cycle.group[0]}\0${cycle.path[0]}`;
  return cycles.sort((a, b) => key(a) < key(b) ? -1 : 1);
}

// ---------------------------------------------------------------------------------------------
// Layers
