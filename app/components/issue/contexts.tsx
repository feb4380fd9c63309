import { contextValue } from "../../lib/context-values";
import { hasValues, KeyValues } from "./key-values";

/**
 * The contexts worth a table: one whose fields are all empty, or that only names its own type,
 * says nothing (an SDK sends `cloud_resource: {}` off the cloud) and would read "Nothing recorded".
 */
export function shownContexts(contexts: Record<string, Record<string, unknown>>): [string, Record<string, unknown>][] {
  return Object.entries(contexts).filter(([, context]) => hasValues(Object.entries(context).filter(([key]) => key !== "type")));
}

/**
 * An event's contexts, one table each. Fields the docs give a unit (memory in bytes, boot and
 * start times) read as "23.5 GiB" and "2026-11-28 15:27 UTC", the value sent in their tooltip;
 * the rest as sent, as text.
 */
export function Contexts({ contexts }: { contexts: Record<string, Record<string, unknown>> }) {
  return (
    <>
      {shownContexts(contexts).map(([name, context]) => (
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
