"use client";

import { useActionState } from "react";
import { deleteDeadLetterAction, retryDeadLetterAction } from "../../../actions/dead-letters";
import type { FormState } from "../../../lib/forms";

/** Retry and Delete for one dead letter, each answering in place. */
export function DeadLetterButtons({ org, id, retryable }: { org: string; id: number; retryable: boolean }) {
  const [retried, retry, retrying] = useActionState<FormState, FormData>(retryDeadLetterAction, {});
  const [deleted, remove, deleting] = useActionState<FormState, FormData>(deleteDeadLetterAction, {});
  const result = retried.error || retried.notice ? retried : deleted;
  return (
    <div className="dead-letter-actions">
      <div className="row">
        {retryable && (
          <form action={retry}>
            <input type="hidden" name="org" value={org} />
            <input type="hidden" name="id" value={id} />
            <button type="submit" className="primary" disabled={retrying || deleting}>
              {retrying ? "Retrying…" : "Retry"}
            </button>
          </form>
        )}
        <form action={remove}>
          <input type="hidden" name="org" value={org} />
          <input type="hidden" name="id" value={id} />
          <button type="submit" className="danger" disabled={retrying || deleting}>
            {deleting ? "Deleting…" : "Delete"}
          </button>
        </form>
      </div>
      {result.error ? (
        <p className="error" role="alert">
          {result.error}
        </p>
      ) : result.notice ? (
        <p className="notice" role="status">
          {result.notice}
        </p>
      ) : null}
    </div>
  );
}
