import { EnvelopeError } from "./errors";
import { type ItemHeader } from "./headers";
import { itemBudget, type EnvelopeLimits, type ItemBudget, type LimitGroup } from "./limits";

/**
 * Counts items and payload bytes against `EnvelopeLimits` for one envelope, and throws the
 * moment a count or size would be crossed, so the parser never holds bytes past a limit.
 * Offsets in its errors are the item's header or payload start, whatever the chunking.
 */
export class LimitTracker {
  private items = 0;
  private readonly groupCounts = new Map<LimitGroup, number>();
  private readonly groupBytes = new Map<LimitGroup, number>();

  constructor(private readonly limits: EnvelopeLimits) {}

  get itemsCount(): number {
    return this.items;
  }

  /** Counts a new item (its header was just read) and returns its byte budget. */
  admit(header: ItemHeader, headerStart: number): ItemBudget {
    const n = this.items + 1;
    if (n > this.limits.maxItemsCount) {
      throw new EnvelopeError("too_many_items", `the envelope has more than maxItemsCount (${this.limits.maxItemsCount}) items`, {
        limit: "maxItemsCount",
        itemType: header.type,
        offset: headerStart,
      });
    }
    const budget = itemBudget(header, this.limits);
    if (budget.group !== null && budget.groupCountLimit !== null) {
      const count = (this.groupCounts.get(budget.group) ?? 0) + 1;
      const max = this.limits[budget.groupCountLimit];
      if (count > max) {
        const message = `the envelope has more than ${budget.groupCountLimit} (${max}) ${header.type} items`;
        throw new EnvelopeError("too_many_items", message, {
          limit: budget.groupCountLimit,
          itemType: header.type,
          offset: headerStart,
        });
      }
      this.groupCounts.set(budget.group, count);
    }
    this.items = n;
    return budget;
  }

  /** Throws if the item's payload, `size` bytes so far, crosses its own cap or its group's total. */
  checkPayload(header: ItemHeader, budget: ItemBudget, size: number, payloadStart: number): void {
    if (budget.maxBytes !== null && size > budget.maxBytes) {
      throw new EnvelopeError(
        "too_large",
        `envelope exceeded size limits for type '${header.type}': ` +
          `item ${this.items} is larger than ${budget.bytesLimit} (${budget.maxBytes} bytes)`,
        { limit: budget.bytesLimit, itemType: header.type, offset: payloadStart },
      );
    }
    if (budget.group !== null && budget.groupBytesLimit !== null) {
      const max = this.limits[budget.groupBytesLimit];
      if ((this.groupBytes.get(budget.group) ?? 0) + size > max) {
        throw new EnvelopeError(
          "too_large",
          `envelope exceeded size limits for type '${header.type}': ` +
            `the ${header.type} items together are larger than ${budget.groupBytesLimit} (${max} bytes)`,
          { limit: budget.groupBytesLimit, itemType: header.type, offset: payloadStart },
        );
      }
    }
  }

  /** A declared length must also fit in what is left of the envelope. */
  checkDeclaredLength(header: ItemHeader, length: number, payloadStart: number): void {
    if (payloadStart + length > this.limits.maxEnvelopeBytes) {
      throw new EnvelopeError(
        "too_large",
        `item ${this.items} (type '${header.type}') declares length ${length}, ` +
          `which makes the envelope larger than maxEnvelopeBytes (${this.limits.maxEnvelopeBytes} bytes)`,
        { limit: "maxEnvelopeBytes", itemType: header.type, offset: payloadStart },
      );
    }
  }

  /** Adds a finished item's payload to its group's running total. */
  close(budget: ItemBudget, size: number): void {
    if (budget.group !== null) this.groupBytes.set(budget.group, (this.groupBytes.get(budget.group) ?? 0) + size);
  }
}
