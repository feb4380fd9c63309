import { tempAttachmentSpool } from "../../src/server/ingest/attachment-spool";
import { attachmentSpoolContract } from "./attachment-spool";

attachmentSpoolContract("temporary files", tempAttachmentSpool);
