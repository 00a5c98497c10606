import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AppError } from "../../src/errors";
import { parseIssueSearch } from "../../src/search/issue-search-terms";
import { tagFilterQuery } from "../../src/search/tag-filter";

const NOW = Date.UTC(2026, 10, 20, 12, 0);
const H = 3_600_000;
const parse = (query: string) => parseIssueSearch(query, NOW);

describe("issue search grammar: every documented form", () => {
  test("empty and blank queries are no search", () => {
    assert.equal(parse(""), null);
    assert.equal(parse("   "), null);
  });

  test("free text: consecutive words are one phrase; quotes keep spaces", () => {
    assert.deepEqual(parse("TypeError x is undefined"), { kind: "text", text: "TypeError x is undefined" });
    assert.deepEqual(parse('"x is undefined"'), { kind: "text", text: "x is undefined" });
    assert.deepEqual(parse("Type* level:error"), { kind: "and", nodes: [{ kind: "text", text: "Type*" }, { kind: "level", levels: ["error"] }] });
  });

  test("key:value, quoted values, tags[key] and any tag", () => {
    assert.deepEqual(parse("browser:Chrome"), { kind: "tag", key: "browser", values: [{ match: "exact", value: "Chrome" }] });
    assert.deepEqual(parse('release:"1.0 beta"'), { kind: "tag", key: "release", values: [{ match: "exact", value: "1.0 beta" }] });
    assert.deepEqual(parse('tags[server name]:a'.replace(" ", "_")), { kind: "tag", key: "server_name", values: [{ match: "exact", value: "a" }] });
    assert.deepEqual(parse("environment:production"), { kind: "tag", key: "environment", values: [{ match: "exact", value: "production" }] });
    assert.deepEqual(parse('msg:"say \\"hi\\""'), { kind: "tag", key: "msg", values: [{ match: "exact", value: 'say "hi"' }] });
  });

  test("negation, lists and wildcards", () => {
    assert.deepEqual(parse("!environment:staging"), { kind: "not", node: { kind: "tag", key: "environment", values: [{ match: "exact", value: "staging" }] } });
    assert.deepEqual(parse("level:[error, fatal]"), { kind: "level", levels: ["error", "fatal"] });
    assert.deepEqual(parse("url:*/checkout*"), { kind: "tag", key: "url", values: [{ match: "wildcard", pattern: "*/checkout*" }] });
    assert.deepEqual(parse("browser:*"), { kind: "has_tag", key: "browser" });
    assert.deepEqual(parse("note:a\\*b"), { kind: "tag", key: "note", values: [{ match: "exact", value: "a*b" }] });
  });

  test("has: and !has:", () => {
    assert.deepEqual(parse("has:user"), { kind: "has_tag", key: "user" });
    assert.deepEqual(parse("!has:release"), { kind: "not", node: { kind: "has_tag", key: "release" } });
    assert.deepEqual(parse("has:firstRelease"), { kind: "has_first_release" });
  });

  test("numbers and dates compare; relative times count back from now", () => {
    assert.deepEqual(parse("times_seen:>100"), { kind: "compare", column: "times_seen", op: ">", value: 100 });
    assert.deepEqual(parse("timesSeen:<=1k"), { kind: "compare", column: "times_seen", op: "<=", value: 1000 });
    assert.deepEqual(parse("issue.id:42"), { kind: "compare", column: "id", op: "=", value: 42 });
    assert.deepEqual(parse("firstSeen:-24h"), { kind: "compare", column: "first_seen", op: ">=", value: NOW - 24 * H });
    assert.deepEqual(parse("age:+7d"), { kind: "compare", column: "first_seen", op: "<=", value: NOW - 7 * 24 * H });
    assert.deepEqual(parse("age:-30m"), { kind: "compare", column: "first_seen", op: ">=", value: NOW - 30 * 60_000 });
    assert.deepEqual(parse("lastSeen:>2026-11-01"), { kind: "compare", column: "last_seen", op: ">", value: Date.UTC(2026, 10, 1) });
    assert.deepEqual(parse("lastSeen:>=2026-11-01T10:30:00"), { kind: "compare", column: "last_seen", op: ">=", value: Date.UTC(2026, 10, 1, 10, 30) });
    assert.deepEqual(parse("lastSeen:<2026-11-01T10:30:00+01:00"), { kind: "compare", column: "last_seen", op: "<", value: Date.UTC(2026, 10, 1, 9, 30) });
    assert.deepEqual(parse("firstSeen:2026-11-01"), {
      kind: "and",
      nodes: [
        { kind: "compare", column: "first_seen", op: ">=", value: Date.UTC(2026, 10, 1) },
        { kind: "compare", column: "first_seen", op: "<", value: Date.UTC(2026, 10, 2) },
      ],
    });
  });

  test("is: statuses, substatuses, assignment and review", () => {
    assert.deepEqual(parse("is:unresolved"), { kind: "status", statuses: ["unresolved"] });
    assert.deepEqual(parse("is:resolved"), { kind: "status", statuses: ["resolved"] });
    assert.deepEqual(parse("is:ignored"), { kind: "status", statuses: ["ignored"] });
    assert.deepEqual(parse("is:archived"), { kind: "status", statuses: ["ignored"] });
    assert.deepEqual(parse("is:assigned"), { kind: "assigned" });
    assert.deepEqual(parse("is:unassigned"), { kind: "not", node: { kind: "assigned" } });
    assert.deepEqual(parse("is:for_review"), { kind: "for_review", since: NOW - 7 * 86_400_000 });
    assert.deepEqual(parse("is:regressed"), {
      kind: "and",
      nodes: [{ kind: "status", statuses: ["unresolved"] }, { kind: "substatus", substatuses: ["regressed"] }],
    });
    assert.deepEqual(parse("is:escalating"), {
      kind: "and",
      nodes: [{ kind: "status", statuses: ["unresolved"] }, { kind: "substatus", substatuses: ["escalating"] }],
    });
    assert.deepEqual(parse("is:[resolved, ignored]"), {
      kind: "or",
      nodes: [{ kind: "status", statuses: ["resolved"] }, { kind: "status", statuses: ["ignored"] }],
    });
  });

  test("assigned:, bookmarks:, release:latest, project: name what the services look up", () => {
    assert.deepEqual(parse("assigned:me"), { kind: "assignee_ref", refs: [{ type: "me" }], token: "assigned:me" });
    assert.deepEqual(parse("assigned:[#backend, Ann@Example.com, none, my_teams]"), {
      kind: "assignee_ref",
      refs: [{ type: "team", slug: "backend" }, { type: "email", email: "ann@example.com" }, { type: "none" }, { type: "my_teams" }],
      token: "assigned:[#backend, Ann@Example.com, none, my_teams]",
    });
    assert.deepEqual(parse("bookmarks:me"), { kind: "bookmarks_ref", refs: [{ type: "me" }], token: "bookmarks:me" });
    assert.deepEqual(parse("release:latest"), { kind: "release_ref", first: false, latest: true, values: [], token: "release:latest" });
    assert.deepEqual(parse("firstRelease:1.*"), { kind: "first_release", values: [{ match: "wildcard", pattern: "1.*" }] });
    assert.deepEqual(parse("project:[web, api]"), { kind: "project_ref", slugs: ["web", "api"], token: "project:[web, api]" });
  });

  test("user.email / id / username / ip match their own per-field keys, not the user tag", () => {
    assert.deepEqual(parse("user.email:a@b.c"), { kind: "tag", key: "user.email", values: [{ match: "exact", value: "a@b.c" }] });
    assert.deepEqual(parse("user.id:42"), { kind: "tag", key: "user.id", values: [{ match: "exact", value: "42" }] });
    assert.deepEqual(parse("user.username:ann"), { kind: "tag", key: "user.username", values: [{ match: "exact", value: "ann" }] });
    assert.deepEqual(parse("user.ip:10.0.0.*"), { kind: "tag", key: "user.ip", values: [{ match: "wildcard", pattern: "10.0.0.*" }] });
    assert.deepEqual(parse("has:user.email"), { kind: "has_tag", key: "user.email" });
    assert.deepEqual(parse("!user.id:42"), { kind: "not", node: { kind: "tag", key: "user.id", values: [{ match: "exact", value: "42" }] } });
    assert.throws(() => parse("user.id:>42"), /"user\.id" is a tag and takes no comparison \(>\)/);
  });

  test("level and issue.priority", () => {
    assert.deepEqual(parse("level:warning"), { kind: "level", levels: ["warning"] });
    assert.deepEqual(parse("issue.priority:[high, medium]"), { kind: "priority", priorities: ["high", "medium"] });
  });

  test("AND binds tighter than OR; parentheses group; juxtaposition is AND", () => {
    const error = { kind: "level", levels: ["error"] };
    const fatal = { kind: "level", levels: ["fatal"] };
    const prod = { kind: "tag", key: "environment", values: [{ match: "exact", value: "prod" }] };
    assert.deepEqual(parse("level:error OR level:fatal environment:prod"), { kind: "or", nodes: [error, { kind: "and", nodes: [fatal, prod] }] });
    assert.deepEqual(parse("(level:error OR level:fatal) AND environment:prod"), { kind: "and", nodes: [{ kind: "or", nodes: [error, fatal] }, prod] });
    assert.deepEqual(parse("(level:error)"), error);
    assert.deepEqual(parse("!(level:error)".slice(1)), error);
    assert.deepEqual(parse("((level:error OR level:fatal))"), { kind: "or", nodes: [error, fatal] });
  });
});

describe("tag links: tagFilterQuery reads back as exactly that tag value", () => {
  const pairs: [string, string][] = [
    ["browser", "Chrome 120"],
    ["url", "https://shop.example.com/cart?x=(1)"],
    ["quote", 'say "hi"'],
    ["user", "email:ann@example.com"],
    ["release", "app@1.0"],
    ["odd:key", "v"],
    ["9lives", "cat"],
    ["star", "a*b"],
  ];
  for (const [key, value] of pairs) {
    test(`${key} = ${value}`, () => {
      assert.deepEqual(parse(tagFilterQuery(key, value)), { kind: "tag", key, values: [{ match: "exact", value }] });
    });
  }
  test("values that need no quotes stay bare", () => {
    assert.equal(tagFilterQuery("release", "app@1.0"), "release:app@1.0");
    assert.equal(tagFilterQuery("browser", "Chrome 120"), 'browser:"Chrome 120"');
  });
});

describe("issue search grammar: malformed queries are a 400 naming the token", () => {
  const cases: [string, string][] = [
    ["is:foo", 'invalid query: is:foo: unknown value "foo" (supported: unresolved, resolved, ignored, archived, assigned, unassigned, for_review, new, ongoing, regressed, escalating)'],
    ["is:linked", "invalid query: is:linked: is:linked is not supported: issues here are never linked to external issue trackers"],
    ["level:critical", 'invalid query: level:critical: unknown level "critical" (supported: fatal, error, warning, info, debug)'],
    ["times_seen:>abc", 'invalid query: times_seen:>abc: "abc" is not a number'],
    ["times_seen:[1, 2]", "invalid query: times_seen:[1, 2]: times_seen: takes one value, not a list"],
    ["firstSeen:yesterday", 'invalid query: firstSeen:yesterday: "yesterday" is not a date (use 2026-11-01, 2026-11-01T12:00:00, or -24h / +7d)'],
    ["lastSeen:2026-02-30", 'invalid query: lastSeen:2026-02-30: "2026-02-30" is not a date'],
    ["age:2026-11-01", 'invalid query: age:2026-11-01: "2026-11-01" is not a relative time (use -24h, +7d; units s, m, h, d, w)'],
    ["firstSeen:>-24h", 'invalid query: firstSeen:>-24h: a relative time (-24h) takes no comparison; -24h means "within the last 24 hours", +24h "more than 24 hours ago"'],
    ["browser:>5", 'invalid query: browser:>5: "browser" is a tag and takes no comparison (>)'],
    ["is:>resolved", 'invalid query: is:>resolved: "is" takes no comparison (>)'],
    ["error.type:TypeError", 'invalid query: error.type:TypeError: "error.type" is not searchable here: issue search reads issues, not single events (keys: is, has, assigned, bookmarks, level, issue.priority, times_seen, firstSeen, lastSeen, age, release, firstRelease, environment, project, issue.id, user.email, user.id, user.username, user.ip, or a tag)'],
    ["assigned:bob", 'invalid query: assigned:bob: "bob" is not me, my_teams, none, #team or an email address'],
    ["assigned:#", 'invalid query: assigned:#: "#" is not a team (use #team-slug)'],
    ["issue.priority:urgent", 'invalid query: issue.priority:urgent: unknown priority "urgent" (supported: high, medium, low)'],
    ["has:[a, b]", "invalid query: has:[a, b]: has: takes one value, not a list"],
    ["level:", "invalid query: missing value after level:"],
    ["level: error", "invalid query: missing value after level:"],
    ["level:[]", "invalid query: empty value in list in level:[]"],
    ["level:[error,]", "invalid query: empty value in list in level:[error,]"],
    ["level:[error", 'invalid query: list not closed with "]" in level:[error'],
    ['release:"1.0', "invalid query: quote at position 9 is never closed"],
    ['"abc"def', 'invalid query: unexpected "d" after the quoted value at position 1'],
    ["(level:error", 'invalid query: "(" at position 1 is never closed'],
    ["level:error )", 'invalid query: unmatched ")" at position 13'],
    ["level:error)", 'invalid query: level:error): unknown level "error)" (supported: fatal, error, warning, info, debug)'],
    ["()", "invalid query: empty parentheses at position 1"],
    ["OR level:error", "invalid query: expected a search term at position 1"],
    ["level:error OR", 'invalid query: "OR" must be followed by a search term (position 15)'],
    ["AND level:error", 'invalid query: "AND" must follow a search term (position 1)'],
    ["level:error AND", 'invalid query: "AND" must be followed by a search term (position 16)'],
    ["level:error AND OR level:fatal", 'invalid query: "AND" must be followed by a search term (position 17)'],
    ["!TypeError", 'invalid query: "!" negates a key:value filter, not free text: !TypeError'],
    ["bookmarks:you", 'invalid query: bookmarks:you: "you" is not me, my_teams, none, #team or an email address'],
    ["x".repeat(2001), "invalid query: longer than 2000 characters"],
    ["(".repeat(21) + "a" + ")".repeat(21), "invalid query: parentheses nested deeper than 20"],
    ["flow:a*b\\*c", 'invalid query: flow:a*b\\*c: "a*b\\*c" mixes * wildcards with literal \\* stars'],
  ];
  for (const [query, message] of cases) {
    test(query.length > 60 ? `${query.slice(0, 20)}… (${query.length} chars)` : query, () => {
      assert.throws(
        () => parse(query),
        (error: unknown) => {
          assert.ok(error instanceof AppError);
          assert.equal(error.code, "bad_request");
          assert.equal(error.message, message);
          return true;
        },
      );
    });
  }
});
