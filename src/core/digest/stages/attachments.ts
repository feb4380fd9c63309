import type { EnvelopeItem } from "../../envelope/index";
import type { Stage, StageContext } from "../stage";
import { keepRaw } from "./raw";

/**
 * Attachments are streamed into storage and counted on the request path
 * (src/core/ingest/attachments.ts) and so normally never reach the digest. One that does
 * (queued by an older version) is kept as received and counted, like before.
 */
export const attachmentsStage: Stage = {
  name: "attachments",
  run(c: StageContext, item: EnvelopeItem): void {
    keepRaw(c, item, "attachment");
  },
};
