/**
 * The messages between the main thread and each of its worker threads (the SQLite commit and
 * checkpoint threads), whatever the thread does: requests answered by id, notices the thread posts
 * by itself, and close, which the main thread posts last.
 */

/** Main thread → thread. Nothing is posted after `close`. */
export type ToThread<Request> = { type: "request"; id: number; body: Request } | { type: "close" };

/** Thread → main thread: a request's answer or failure, or a problem the thread reports by itself. */
export type FromThread<Response> =
  | { type: "done"; id: number; body: Response }
  | { type: "failed"; id: number; message: string }
  | { type: "notice"; message: string };
