/** The choices of an assignee picker: nobody, then people, then teams (as `team:ID`). */
export function AssigneeOptions({ people, teams }: { people: { id: number; label: string }[]; teams: { id: number; slug: string }[] }) {
  return (
    <>
      <option value="">nobody</option>
      <optgroup label="People">
        {people.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
          </option>
        ))}
      </optgroup>
      {teams.length > 0 && (
        <optgroup label="Teams">
          {teams.map((t) => (
            <option key={t.id} value={`team:${t.id}`}>
              #{t.slug}
            </option>
          ))}
        </optgroup>
      )}
    </>
  );
}
