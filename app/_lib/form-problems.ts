/**
 * Form posts that fail are redirected back to their page with a problem code, never with message
 * text: a crafted link could otherwise make a Periscope page display any words the sender likes.
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/src/auth/password";

export const FORM_PROBLEMS = {
  credentials: "The email address or password is not correct.",
  email: "Enter a valid email address.",
  password: `Passwords must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
  mismatch: "The two passwords are not the same.",
  exists: "An account with this email address already exists: sign in instead.",
  invite_email: "This invite is for another email address.",
  member: "You are already a member of this organization.",
  invite: "This invite link is not valid, has expired or has already been used.",
  setup_token: "This setup link is not the one the server printed: open the link from the server console.",
} as const;
export type FormProblem = keyof typeof FORM_PROBLEMS;

export function isFormProblem(value: string | undefined): value is FormProblem {
  return value !== undefined && Object.hasOwn(FORM_PROBLEMS, value);
}

/** The code for an AppError from the account services (their messages name the field first). */
export function problemOf(code: string, message: string): FormProblem {
  if (code === "unauthorized") return "credentials";
  if (code === "forbidden") return "invite_email";
  if (/already a member/i.test(message)) return "member";
  if (code === "conflict" && /already exists/.test(message)) return "exists";
  if (code === "conflict" || code === "not_found") return "invite";
  if (/^password/.test(message)) return "password";
  return "email";
}
