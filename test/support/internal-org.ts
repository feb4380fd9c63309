/** The self-monitoring organization's slug, for the tests in src/core (which do not import src/db). */
export { INTERNAL_ORG_SLUG } from "../../src/db/migrations/0002_internal_project";
