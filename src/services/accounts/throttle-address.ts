/**
 * The address a login is throttled under. IPv4 as it is (an IPv4-mapped IPv6 address is its IPv4
 * address). IPv6 by its /64: one subscriber or host usually holds a whole /64, and per single
 * address an attacker there would have 2^64 fresh addresses to guess from.
 */
import { isIPv4, isIPv6 } from "node:net";

const UNKNOWN = "unknown";

export function throttleAddressOf(ip: string | null): string {
  const address = (ip ?? "").trim().replace(/%.*$/, "").toLowerCase();
  if (isIPv4(address)) return address;
  // Not an address at all (a proxy's odd X-Forwarded-For): kept short, it is a key stored per failure.
  if (!isIPv6(address)) return address === "" ? UNKNOWN : address.slice(0, 64);
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
