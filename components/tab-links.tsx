import Link from "next/link";

export interface TabLink<Id extends string> {
  id: Id;
  label: string;
  href: string;
}

/** A row of links where the current one carries aria-current="page" (styled through it). */
export function TabLinks<Id extends string>({
  label,
  items,
  active,
  className,
  linkClassName,
}: {
  label: string;
  items: TabLink<Id>[];
  active: Id;
  className: string;
  linkClassName: string;
}) {
  return (
    <nav aria-label={label} className={className}>
      {items.map((item) => (
        <Link key={item.id} href={item.href} aria-current={item.id === active ? "page" : undefined} className={linkClassName}>
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
