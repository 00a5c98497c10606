import { randomBytes } from "node:crypto";
import { logMix, realisticMix } from "./mix";
import type { Template } from "./load";

/** The realistic mix's kinds of request (bench/mix.ts), told apart by their envelope's text. */
export const REQUEST_KINDS = {
  "small error (~1.5 KB)": (text: string) => text.includes('"type":"event"') && text.length < 5_000,
  "medium error (~24 KB)": (text: string) => text.includes('"type":"event"') && text.length >= 5_000,
  "session update": (text: string) => text.includes('"type":"session"'),
  "span container": (text: string) => text.includes('"type":"span"'),
  // Logs (issue 38): not part of the realistic mix, measured on their own.
  "log container (100 lines)": (text: string) => text.includes('"type":"log"'),
  "the realistic mix": (text: string) => !text.includes('"type":"log"'),
} as const;

/** The mix's templates of one kind. */
export function templatesOfKind(publicKey: string, match: (text: string) => boolean): Template[] {
  return [...realisticMix(publicKey, 2000), ...logMix(publicKey)].filter((template) => match(Buffer.concat(template.parts).toString("latin1")));
}

/** The template's body with a fresh id where it has one, as the load generator sends it (bench/load.ts). */
export function renderBody(template: Template): Buffer {
  const id = Buffer.from(randomBytes(16).toString("hex"), "latin1");
  return Buffer.concat(template.parts.flatMap((part, index) => (index === 0 ? [part] : [id, part])));
}
