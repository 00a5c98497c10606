/**
 * Sentry's pagination header, which sentry-cli and Sentry API clients follow:
 *
 *   Link: <https://host/api/0/...?cursor=abc>; rel="previous"; results="false"; cursor="abc",
 *         <https://host/api/0/...?cursor=def>; rel="next"; results="true"; cursor="def"
 *
 * Our cursors are opaque keyset positions that only page forward, so "previous" never has results.
 * A link without results carries an empty cursor.
 */
function link(requestUrl: URL, publicUrl: string, rel: "previous" | "next", cursor: string | null): string {
  const query = new URLSearchParams(requestUrl.search);
  query.delete("cursor");
  if (cursor) query.set("cursor", cursor);
  const search = query.toString();
  const href = `${publicUrl}${requestUrl.pathname}${search ? `?${search}` : ""}`;
  return `<${href}>; rel="${rel}"; results="${cursor ? "true" : "false"}"; cursor="${cursor ?? ""}"`;
}

export function linkHeader(request: Request, publicUrl: string, nextCursor: string | null): Record<string, string> {
  const url = new URL(request.url);
  return { Link: `${link(url, publicUrl, "previous", null)}, ${link(url, publicUrl, "next", nextCursor)}` };
}
