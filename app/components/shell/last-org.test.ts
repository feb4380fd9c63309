import { describe, expect, it } from "vitest";
import { pickShellOrg } from "./last-org";

const access = (slug: string, internal = false) => ({ org: { slug, is_internal: internal ? 1 : 0 } });

describe("the organization shown in the shell outside an organization", () => {
  const orgs = [access("acme"), access("telltale", true), access("zoo")].sort((a, b) => a.org.slug.localeCompare(b.org.slug));

  it("is the one last opened while the person still sees it", () => {
    expect(pickShellOrg(orgs, "zoo")?.org.slug).toBe("zoo");
    expect(pickShellOrg(orgs, "telltale")?.org.slug).toBe("telltale");
  });

  it("falls back to the first organization that is not self-monitoring, as the home page does", () => {
    expect(pickShellOrg(orgs, "gone")?.org.slug).toBe("acme");
    expect(pickShellOrg(orgs, undefined)?.org.slug).toBe("acme");
    expect(pickShellOrg([access("telltale", true), access("zoo")], null)?.org.slug).toBe("zoo");
    expect(pickShellOrg([access("telltale", true)], null)?.org.slug).toBe("telltale");
  });

  it("is none for someone who belongs to no organization", () => {
    expect(pickShellOrg([], "acme")).toBeNull();
  });
});
