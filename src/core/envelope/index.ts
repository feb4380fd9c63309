/** The envelope module: streaming parser, item types, size limits, data categories. */
export { EnvelopeParser, type EnvelopeItem, type EnvelopeVisitor, type ItemEnd } from "./parser";
export { parseEnvelope, type ParsedEnvelope } from "./parse-envelope";
export { envelopeEvents, readEnvelope, type EnvelopeEvent } from "./read-envelope";
export { EnvelopeError, isEnvelopeError, statusOf, type EnvelopeErrorDetails, type EnvelopeErrorReason } from "./errors";
export { normalizeEventId, type DynamicSamplingContext, type EnvelopeHeader, type ItemHeader, type JsonObject } from "./headers";
export { ITEM_TYPES, INTERNAL_ITEM_TYPES, isStreamedItemType, knownItemType, type ItemType } from "./item-types";
export { DEFAULT_ENVELOPE_LIMITS, itemBudget, type EnvelopeLimits, type ItemBudget, type LimitName } from "./limits";
export { ITEM_CATEGORIES, MAX_CONTAINER_ITEMS, containedItems, itemQuantities, type DataCategory, type Quantity } from "./categories";
