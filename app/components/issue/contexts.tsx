import { contextValue } from "../../lib/context-values";
import { KeyValues } from "./key-values";

/**
 * An event's contexts, one table each. Fields the docs give a unit (memory in bytes, boot and
 * start times) read as "23.5 GiB" and "2026-11-28 15:27 UTC", the value sent in their tooltip;
 * the rest as sent, as text.
 */
export function Contexts({ contexts }: { contexts: Record<string, Record<string, unknown>> }) {
  return (
    <>
      {Object.entries(contexts).map(([name, context]) => (
        <div key={name}>
          <h3 style={{ fontSize: "0.95rem" }}>{name}</h3>
          <KeyValues
            testId={`context-${name}`}
            rows={Object.entries(context).map(([key, value]): [string, unknown] => {
              const shown = contextValue(name, context.type, key, value);
              return [key, shown ? <span title={`sent as ${shown.sent}`}>{shown.text}</span> : value];
            })}
          />
        </div>
      ))}
    </>
  );
}
