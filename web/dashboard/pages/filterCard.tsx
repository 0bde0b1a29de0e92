/**
 * A list page's filter: one select (its first option "Any", no filter) and a Filter button,
 * sent by GET to the list's own address.
 */
export function FilterCard(props: {
  action: string;
  name: string;
  label: string;
  /** value and text of each option after "Any". */
  options: readonly (readonly [string, string])[];
  selected: string;
}) {
  return (
    <section class="card">
      <form method="get" action={props.action} class="filters">
        <div class="field">
          <label for={props.name}>{props.label}</label>
          <select id={props.name} name={props.name}>
            <option value="">Any</option>
            {props.options.map(([value, text]) => (
              <option value={value} selected={value === props.selected}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <div class="actions">
          <button type="submit">Filter</button>
        </div>
      </form>
    </section>
  );
}
