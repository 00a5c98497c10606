/** What a form's server action answers; shared by the server actions and the client form. */
export interface ActionState {
  /** Why it was refused, in words for the person. */
  error: string | null;
  /** What happened, when it worked. */
  message: string | null;
  /** A secret shown once (a new API token, an invite link); never stored in the clear. */
  secret: string | null;
}

export const IDLE: ActionState = { error: null, message: null, secret: null };
