import Link from "next/link";
import { buttonClass } from "./ui";

export function NotFoundView() {
  return (
    <main className="mx-auto flex min-h-[70vh] max-w-md flex-col items-center justify-center px-4 text-center">
      <p className="font-mono text-sm text-subtle">404</p>
      <h1 className="mt-1 text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-muted">This organization, project, issue or event does not exist, or it has expired.</p>
      <Link href="/" className={`${buttonClass.primary} mt-5`}>
        Go to issues
      </Link>
    </main>
  );
}
