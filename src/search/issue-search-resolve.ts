/** Walks a parsed search, replacing each term: how the services resolve `assigned:me`, `release:latest`, … */
import type { ParsedSearch, ParsedTerm, RefTerm, ResolvedSearch, ResolvedTerm, SearchNode } from "../model";
import { searchError } from "./issue-search-syntax";

export async function mapSearch(
  node: SearchNode<ParsedTerm>,
  resolve: (term: RefTerm) => Promise<SearchNode<ResolvedTerm>>,
): Promise<SearchNode<ResolvedTerm>> {
  switch (node.kind) {
    case "and":
    case "or": {
      const nodes: SearchNode<ResolvedTerm>[] = [];
      for (const child of node.nodes) nodes.push(await mapSearch(child, resolve));
      return { kind: node.kind, nodes };
    }
    case "not":
      return { kind: "not", node: await mapSearch(node.node, resolve) };
    case "assignee_ref":
    case "bookmarks_ref":
    case "release_ref":
    case "project_ref":
      return resolve(node);
    default:
      return node;
  }
}

/** For callers without a user or lookups (tests, benchmarks): a search with a reference is refused. */
export async function withoutRefs(search: ParsedSearch): Promise<ResolvedSearch> {
  if (!search) return null;
  return mapSearch(search, async (term) => {
    throw searchError(`${term.token}: needs a signed-in user or a lookup`);
  });
}
