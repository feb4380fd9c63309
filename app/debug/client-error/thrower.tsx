"use client";

import { useState } from "react";

/** Throws while rendering in the browser, to check the client error page and self-monitoring. */
export function Thrower() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error("Telltale debug: deliberate client error");
  return (
    <button type="button" onClick={() => setBroken(true)}>
      Throw in the browser
    </button>
  );
}
