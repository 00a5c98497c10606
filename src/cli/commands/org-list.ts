/** `periscope org list`: every organisation with its slug, name, id and member count. */

import { print, withStorage, defineCommand } from "../context";

const FLAGS = { json: { type: "boolean" } } as const;

const HELP = `Usage: periscope org list [--json]

Lists the organisations of this installation: slug, name, id and number of members.

  --json                one JSON array instead of the table:
                        [{"id", "slug", "name", "memberCount", "dateCreated"}] (dateCreated: Unix milliseconds)`;

export const orgList = defineCommand({ name: "org list", summary: "list the organisations with their member counts", help: HELP, flags: FLAGS }, async (flags, context) => {
  return withStorage(context, async (storage) => {
    const organizations = await storage.organizations.list();
    const rows = await Promise.all(
      organizations.map(async (organization) => ({
        id: organization.id,
        slug: organization.slug,
        name: organization.name,
        memberCount: (await storage.accounts.members.listByOrganization(organization.id)).length,
        dateCreated: organization.dateCreated,
      })),
    );
    if (flags.json) {
      print(context.stdout, JSON.stringify(rows));
      return 0;
    }
    if (rows.length === 0) {
      print(context.stderr, "No organisations yet: start the server or run `periscope user create` once.");
      return 0;
    }
    print(context.stdout, table(["SLUG", "NAME", "ID", "MEMBERS"], rows.map((row) => [row.slug, row.name, row.id, String(row.memberCount)])));
    return 0;
  });
});

/** Left-aligned columns two spaces apart; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? "").length)));
  return all.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")).join("\n");
}
