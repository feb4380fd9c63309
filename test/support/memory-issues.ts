import { storableRow } from "../../src/core/digest/storable";
import { storableText } from "../../src/core/normalize/values";
import { UNTRIAGED } from "../../src/core/issues/state";
import type { WindowSample } from "../../src/core/issues/window-counts";
import type { NewIssueChange } from "../../src/core/outbox/changes";
import type {
  IssueHash,
  IssueHourDelta,
  IssueStore,
  IssueRowUpdate,
  IssueTagDelta,
  IssueUser,
  NewIssue,
  StoredIssueState,
} from "../../src/core/ports/issues";

/** An issue as the in-memory store keeps it. */
export interface MemoryIssue extends StoredIssueState {
  id: number;
  projectId: number;
  shortNumber: number;
  title: string;
  culprit: string;
  level: string;
  /** JSON text. */
  metadata: string;
  config: string;
}

/**
 * An IssueStore in memory, for core's own tests: the same rules as the database's (a hash
 * belongs to the first issue that claimed it, users counted once per issue, tag and hourly
 * counts added, text kept storable as `storableRow` makes it), nothing else.
 */
export class MemoryIssueStore implements IssueStore {
  readonly issues = new Map<number, MemoryIssue>();
  readonly hashes = new Map<string, number>();
  readonly users = new Set<string>();
  readonly tags = new Map<string, { count: number; firstSeen: number; lastSeen: number }>();
  readonly hours = new Map<string, number>();
  readonly samples: WindowSample[] = [];
  readonly changes: NewIssueChange[] = [];
  /** Projects that have a frequency alert rule (tests add to it). */
  readonly countingProjects = new Set<number>();
  private nextId = 1;
  private readonly shortNumbers = new Map<number, number>();

  async issuesByHash(projectId: number, hashes: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (const h of hashes) {
      const id = this.hashes.get(`${projectId}\u0000${h}`);
      if (id !== undefined) found.set(h, id);
    }
    return found;
  }

  async addHashes(rows: readonly IssueHash[]): Promise<void> {
    for (const r of rows)
      if (!this.hashes.has(`${r.projectId}\u0000${r.hash}`)) this.hashes.set(`${r.projectId}\u0000${r.hash}`, r.issueId);
  }

  async createIssue(issue: NewIssue): Promise<number> {
    const owner = issue.hashes.map((h) => this.hashes.get(`${issue.projectId}\u0000${h}`)).find((id) => id !== undefined);
    if (owner !== undefined) return owner;
    const id = this.nextId++;
    const shortNumber = (this.shortNumbers.get(issue.projectId) ?? 0) + 1;
    this.shortNumbers.set(issue.projectId, shortNumber);
    const fields = storableRow({
      title: issue.fields.title,
      culprit: issue.fields.culprit,
      level: issue.fields.level,
      metadata: JSON.stringify(issue.fields.metadata),
    });
    this.issues.set(id, {
      id,
      projectId: issue.projectId,
      shortNumber,
      ...fields,
      config: issue.config,
      status: "unresolved",
      substatus: "new",
      times_seen: 0,
      user_count: 0,
      first_seen: issue.seenAt,
      last_seen: issue.seenAt,
      last_release: issue.release,
      last_environment: issue.environment,
      ...UNTRIAGED,
    });
    for (const h of issue.hashes) this.hashes.set(`${issue.projectId}\u0000${h}`, id);
    return id;
  }

  async addUsers(rows: readonly IssueUser[]): Promise<Map<number, number>> {
    const added = new Map<number, number>();
    for (const r of rows) {
      const key = `${r.issueId}\u0000${r.userKey}`;
      if (this.users.has(key)) continue;
      this.users.add(key);
      added.set(r.issueId, (added.get(r.issueId) ?? 0) + 1);
    }
    return added;
  }

  async readIssues(ids: readonly number[]): Promise<Map<number, StoredIssueState>> {
    const found = new Map<number, StoredIssueState>();
    for (const id of ids) {
      const issue = this.issues.get(id);
      if (issue) found.set(id, { ...issue });
    }
    return found;
  }

  async updateIssues(rows: readonly IssueRowUpdate[]): Promise<void> {
    for (const { id, update } of rows) {
      const issue = this.issues.get(id);
      if (!issue) throw new Error(`no issue ${id}`);
      for (const [column, value] of Object.entries(update))
        if (value !== undefined) Object.assign(issue, { [column]: typeof value === "string" ? storableText(value) : value });
    }
  }

  async addTags(rows: readonly IssueTagDelta[]): Promise<void> {
    for (const row of rows) {
      const t = storableRow(row);
      const key = `${t.issueId}\u0000${t.key}\u0000${t.value}`;
      const had = this.tags.get(key);
      this.tags.set(
        key,
        had
          ? { count: had.count + t.count, firstSeen: Math.min(had.firstSeen, t.firstSeen), lastSeen: Math.max(had.lastSeen, t.lastSeen) }
          : { count: t.count, firstSeen: t.firstSeen, lastSeen: t.lastSeen },
      );
    }
  }

  async addHours(rows: readonly IssueHourDelta[]): Promise<void> {
    for (const h of rows) this.hours.set(`${h.issueId}\u0000${h.hour}`, (this.hours.get(`${h.issueId}\u0000${h.hour}`) ?? 0) + h.count);
  }

  async addWindowCounts(samples: readonly WindowSample[]): Promise<void> {
    this.samples.push(...samples);
  }

  async projectsCountingEvents(projectIds: readonly number[]): Promise<ReadonlySet<number>> {
    return new Set(projectIds.filter((p) => this.countingProjects.has(p)));
  }

  async writeChanges(changes: readonly NewIssueChange[]): Promise<void> {
    this.changes.push(...changes);
  }
}
