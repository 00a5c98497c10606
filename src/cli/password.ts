/**
 * Where a command gets a password from: `--password-stdin` (the scripted way: one line piped in),
 * `--password <p>` (visible to other local users in the process list and kept in shell history), or,
 * with neither and a terminal attached, a prompt that does not echo. The password is never printed.
 */
import { passwordProblem } from "../auth/password";
import { UsageError } from "./args";
import type { CliContext } from "./context";

export const PASSWORD_FLAGS = {
  password: { type: "string" },
  "password-stdin": { type: "boolean" },
} as const;

export const PASSWORD_HELP = `  --password <p>        the password (visible in the process list and shell history; prefer the two below)
  --password-stdin      read the password from standard input (one line; a trailing newline is dropped)
                        With neither, the command prompts for it when run in a terminal.`;

/** Ctrl-C at the prompt. */
export class Interrupted extends Error {
  constructor() {
    super("interrupted");
    this.name = "Interrupted";
  }
}

export async function readPassword(
  context: CliContext,
  flags: { password?: string; "password-stdin"?: true },
  prompt: string,
): Promise<string> {
  if (flags.password !== undefined && flags["password-stdin"]) throw new UsageError("give --password or --password-stdin, not both");
  let password: string;
  if (flags.password !== undefined) {
    password = flags.password;
  } else if (flags["password-stdin"]) {
    password = context.stdin.isTTY ? await promptHidden(context, prompt) : await readStdin(context);
    if (password === "") throw new UsageError("--password-stdin: standard input held no password");
  } else if (context.stdin.isTTY) {
    password = await promptHidden(context, prompt);
    checkPassword(password);
    if ((await promptHidden(context, "Repeat it: ")) !== password) throw new UsageError("the two passwords differ");
  } else {
    throw new UsageError("no password: pipe it in with --password-stdin, give --password, or run the command in a terminal to be asked");
  }
  checkPassword(password);
  return password;
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
}

async function readStdin(context: CliContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of context.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

/** Reads one line from the terminal in raw mode, so nothing typed appears; the prompt goes to stderr. */
function promptHidden(context: CliContext, prompt: string): Promise<string> {
  const { stdin, stderr } = context;
  stderr.write(prompt);
  stdin.setRawMode?.(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write("\n");
    };
    const onData = (chunk: string | Buffer) => {
      for (const char of String(chunk)) {
        if (char === "\r" || char === "\n" || char === "\u0004") {
          finish();
          resolve(value);
          return;
        }
        if (char === "\u0003") {
          finish();
          reject(new Interrupted());
          return;
        }
        if (char === "\u007f" || char === "\b") value = Array.from(value).slice(0, -1).join("");
        else if (char >= " ") value += char;
      }
    };
    stdin.on("data", onData);
  });
}
