/**
 * The key one client's connections and buffered bytes are counted under (src/http/direct-server.ts,
 * src/ingest/budget.ts): the IPv4 address, also when mapped into IPv6, or the first 64 bits of an
 * IPv6 address, since one subscriber usually has a whole /64 to pick addresses from.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  if (!address.includes(":")) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = "", tail] = address.toLowerCase().split("%")[0]!.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  // "::" stands for as many zero groups as make eight; only the first four matter here.
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
