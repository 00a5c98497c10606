"use client";

import { useState } from "react";

export function ClientErrorTrigger() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error("periscope test client exception");
  return (
    <button type="button" onClick={() => setBroken(true)}>
      Throw a client-side exception
    </button>
  );
}
