"use client";

import { useActionState } from "react";
import {
  saveFiltersAction,
  saveFingerprintRulesAction,
  upgradeGroupingAction,
  saveScrubbingAction,
} from "../../../../../../actions/projects";
import { FormMessages, Submit } from "../../../../../../components/form-parts";
import type { InboundFilterConfig } from "@/src/core/filter/types";
import type { FormState } from "../../../../../../lib/forms";

/** The filters the form edits: all but the legacy browser rules, which are not editable here. */
export type FilterValues = Omit<InboundFilterConfig, "legacyBrowserRules">;

const SWITCHES: { name: keyof FilterValues; title: string; hint: string }[] = [
  {
    name: "scriptError",
    title: "Cross-origin “Script error.”",
    hint: "Errors from scripts of other origins, which browsers hide behind this message.",
  },
  {
    name: "resizeObserver",
    title: "ResizeObserver loop notices",
    hint: "“ResizeObserver loop limit exceeded” and “…completed with undelivered notifications”: benign.",
  },
  { name: "browserExtensions", title: "Browser extensions", hint: "Errors raised by extensions and injected scripts, not by your code." },
  { name: "localhost", title: "Localhost", hint: "Events from 127.0.0.1, ::1 or a localhost URL. Switch off while you test locally." },
  { name: "webCrawlers", title: "Web crawlers", hint: "Events from known bots and crawlers (Googlebot, Bingbot, …)." },
  { name: "legacyBrowsers", title: "Legacy browsers", hint: "IE 11 and older, Safari 11, Chrome 62, Firefox 66, Opera 50 and older." },
];

export function FiltersForm({ org, project, values }: { org: string; project: string; values: FilterValues }) {
  const [state, action] = useActionState<FormState, FormData>(saveFiltersAction, {});
  return (
    <form action={action} data-testid="filters-form">
      <FormMessages state={state} />
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      {SWITCHES.map((s) => (
        <label key={s.name} style={{ display: "flex", gap: "0.6rem", alignItems: "flex-start" }}>
          <input type="checkbox" name={s.name} defaultChecked={Boolean(values[s.name])} style={{ width: "auto", marginTop: "0.25rem" }} />
          <span>
            {s.title}
            <span className="hint">{s.hint}</span>
          </span>
        </label>
      ))}
      <label>
        Error messages{" "}
        <span className="hint">
          One glob per line, matched against “Type: value” and the message, e.g. <code>*ChunkLoadError*</code>
        </span>
        <textarea
          name="errorMessages"
          rows={3}
          defaultValue={values.errorMessages.join("\n")}
          style={{ width: "100%", fontFamily: "var(--mono)" }}
        />
      </label>
      <label>
        Releases{" "}
        <span className="hint">
          One glob per line, e.g. <code>*-beta</code>
        </span>
        <textarea name="releases" rows={2} defaultValue={values.releases.join("\n")} style={{ width: "100%", fontFamily: "var(--mono)" }} />
      </label>
      <Submit>Save filters</Submit>
    </form>
  );
}

export function ScrubbingForm(props: {
  org: string;
  project: string;
  extra: readonly string[];
  safe: readonly string[];
  storeIp: boolean;
}) {
  const [state, action] = useActionState<FormState, FormData>(saveScrubbingAction, {});
  return (
    <form action={action} data-testid="scrubbing-form">
      <FormMessages state={state} />
      <input type="hidden" name="org" value={props.org} />
      <input type="hidden" name="project" value={props.project} />
      <label>
        Additional sensitive fields <span className="hint">One field name per line; values of matching keys become [Filtered].</span>
        <textarea
          name="extraSensitiveFields"
          rows={3}
          defaultValue={props.extra.join("\n")}
          style={{ width: "100%", fontFamily: "var(--mono)" }}
        />
      </label>
      <label>
        Safe fields <span className="hint">One field name per line; never scrubbed.</span>
        <textarea name="safeFields" rows={2} defaultValue={props.safe.join("\n")} style={{ width: "100%", fontFamily: "var(--mono)" }} />
      </label>
      <label style={{ display: "flex", gap: "0.6rem", alignItems: "flex-start" }}>
        <input type="checkbox" name="storeIpAddresses" defaultChecked={props.storeIp} style={{ width: "auto", marginTop: "0.25rem" }} />
        <span>
          Store IP addresses
          <span className="hint">
            Off removes the user&apos;s IP address and forwarding headers from every event, log, span and session.
          </span>
        </span>
      </label>
      <Submit>Save scrubbing</Submit>
    </form>
  );
}

export function FingerprintRulesForm({ org, project, rules }: { org: string; project: string; rules: string }) {
  const [state, action] = useActionState<FormState, FormData>(saveFingerprintRulesAction, {});
  return (
    <form action={action} data-testid="fingerprint-form">
      <FormMessages state={state} />
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <label>
        Rules
        <span className="hint">
          One rule per line: matchers, then <code>-&gt;</code> and the fingerprint, e.g.{" "}
          <code>error.type:DatabaseUnavailable -&gt; system-down</code> or{" "}
          <code>message:&quot;*connection refused*&quot; -&gt; conn-refused title=&quot;Connection refused&quot;</code>. Matchers:
          error.type, error.value, message, logger, level, tags.&lt;key&gt;, stack.function, stack.module, stack.abs_path. Lines starting
          with # are comments.
        </span>
        <textarea name="rules" rows={8} defaultValue={state.values?.rules ?? rules} style={{ width: "100%", fontFamily: "var(--mono)" }} />
      </label>
      <Submit>Save rules</Submit>
    </form>
  );
}

/** Moves the project to a newer grouping version, with the transition the page describes. */
export function UpgradeGroupingForm({ org, project, to }: { org: string; project: string; to: string }) {
  const [state, action] = useActionState<FormState, FormData>(upgradeGroupingAction, {});
  return (
    <form action={action} data-testid="grouping-upgrade-form">
      <FormMessages state={state} />
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="project" value={project} />
      <input type="hidden" name="to" value={to} />
      <Submit>Upgrade to {to}</Submit>
    </form>
  );
}
