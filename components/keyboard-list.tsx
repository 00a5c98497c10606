"use client";

import { useEffect, useRef, type ReactNode } from "react";

const NEXT_KEYS = new Set(["j", "ArrowDown"]);
const PREVIOUS_KEYS = new Set(["k", "ArrowUp"]);

/**
 * Keyboard navigation over the links marked `data-nav-item` inside: j / ↓ and k / ↑ move the focus,
 * Home / End jump, Enter follows the focused link (native behaviour). j and k work from anywhere on
 * the page; the arrow keys only once focus is in the list, so they still scroll the page otherwise.
 */
export function KeyboardList({ children, className }: { children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const container = ref.current;
      if (!container || event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable='true']")) return;
      const items = Array.from(container.querySelectorAll<HTMLElement>("[data-nav-item]"));
      if (items.length === 0) return;
      const current = items.findIndex((item) => item === document.activeElement);
      const isArrow = event.key.startsWith("Arrow");
      if (isArrow && current < 0) return;
      let index: number;
      if (NEXT_KEYS.has(event.key)) index = current < 0 ? 0 : Math.min(items.length - 1, current + 1);
      else if (PREVIOUS_KEYS.has(event.key)) index = current < 0 ? 0 : Math.max(0, current - 1);
      else if (event.key === "Home" && current >= 0) index = 0;
      else if (event.key === "End" && current >= 0) index = items.length - 1;
      else return;
      event.preventDefault();
      const item = items[index];
      item?.focus();
      item?.scrollIntoView({ block: "nearest" });
    }
    document.addEventListener("keydown", onKeyDown);
    // Marks the list as interactive (hydrated), for people's tools and for tests alike.
    ref.current?.setAttribute("data-keyboard-nav", "ready");
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <div ref={ref} className={className}>
      {children}
    </div>
  );
}
