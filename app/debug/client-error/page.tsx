"use client";

import { useState } from "react";

/** Throws while rendering in the browser, to check the client error page and self-monitoring. */
export default function ClientErrorPage() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error("Telltale debug: deliberate client error");
  return (
    <main>
      <h1>Client error check</h1>
      <button type="button" onClick={() => setBroken(true)}>
        Throw in the browser
      </button>
    </main>
  );
}
