import { sql } from "kysely";
import { withId, type Migration } from "./helpers";

/**
 * Teams and roles. Memberships gain Sentry's `manager` role; organizations gain
 * "open membership" (on: members see every project, as in Sentry; off: only their teams'
 * projects); teams with members (a team role each) own projects; issues can be assigned to a
 * team; invitations wait for their email address to accept them.
 *
 * Every organization gets a default team, named after it, that every existing member and
 * project joins, so turning open membership off later changes nothing until teams are set up.
 */
export const m0017: Migration = {
  async up(db, dialect) {
    const roles = sql`role in ('owner', 'manager', 'admin', 'member')`;
    if (dialect === "postgres") {
      await sql`alter table memberships drop constraint memberships_role`.execute(db);
      await sql`alter table memberships add constraint memberships_role check (${roles})`.execute(db);
    } else {
      // SQLite cannot change a check constraint: the table is rebuilt (nothing references it).
      await db.schema
        .createTable("memberships_new")
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("memberships_pk", ["organization_id", "user_id"])
        .addCheckConstraint("memberships_role", roles)
        .execute();
      await sql`insert into memberships_new (organization_id, user_id, role, created_at)
        select organization_id, user_id, role, created_at from memberships`.execute(db);
      await db.schema.dropTable("memberships").execute();
      await sql`alter table memberships_new rename to memberships`.execute(db);
      await db.schema.createIndex("memberships_user_id").on("memberships").column("user_id").execute();
    }

    await db.schema
      .alterTable("organizations")
      .addColumn("open_membership", "integer", (c) => c.notNull().defaultTo(1))
      .execute();

    await withId(db.schema.createTable("teams"), dialect)
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("slug", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("teams_org_slug", ["organization_id", "slug"])
      .execute();

    await db.schema
      .createTable("team_members")
      .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("role", "text", (c) => c.notNull().defaultTo("contributor"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("team_members_pk", ["team_id", "user_id"])
      .addCheckConstraint("team_members_role", sql`role in ('contributor', 'admin')`)
      .execute();
    await db.schema.createIndex("team_members_user_id").on("team_members").column("user_id").execute();

    await db.schema
      .createTable("project_teams")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("project_teams_pk", ["project_id", "team_id"])
      .execute();
    await db.schema.createIndex("project_teams_team_id").on("project_teams").column("team_id").execute();

    await db.schema
      .alterTable("issues")
      .addColumn("assignee_team_id", "integer", (c) => c.references("teams.id").onDelete("set null"))
      .execute();

    await withId(db.schema.createTable("invitations"), dialect)
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("role", "text", (c) => c.notNull())
      /** Space-separated team ids the new member joins. */
      .addColumn("teams", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("invited_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("invitations_org_email", ["organization_id", "email"])
      .addCheckConstraint("invitations_role", roles)
      .execute();

    // A default team per organization, holding its members and projects.
    const orgs = (await db.selectFrom("organizations").select(["id", "slug", "name", "created_at"]).execute()) as {
      id: number;
      slug: string;
      name: string;
      created_at: number;
    }[];
    for (const org of orgs) {
      const team = (await db
        .insertInto("teams")
        .values({ organization_id: org.id, slug: org.slug, name: org.name, is_default: 1, created_at: org.created_at })
        .returning("id")
        .executeTakeFirstOrThrow()) as { id: number };
      await sql`insert into team_members (team_id, user_id, role, created_at)
        select ${team.id}, user_id, case when role = 'member' then 'contributor' else 'admin' end, created_at
        from memberships where organization_id = ${org.id}`.execute(db);
      await sql`insert into project_teams (project_id, team_id)
        select id, ${team.id} from projects where organization_id = ${org.id}`.execute(db);
    }
  },
};
