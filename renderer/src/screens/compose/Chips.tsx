/** Toggle buttons for a short list of choices (sizes, durations): pressed when chosen. */
export function Chips({
  label,
  choices,
  chosen,
  show = (c) => c,
  onToggle,
}: {
  label: string;
  choices: readonly string[];
  chosen: readonly string[];
  show?: (choice: string) => string;
  onToggle(choice: string): void;
}) {
  if (choices.length === 0) return null;
  return (
    <div className="compose-chips" role="group" aria-label={label}>
      {choices.map((choice) => (
        <button
          key={choice}
          type="button"
          className="compose-chip"
          aria-pressed={chosen.includes(choice)}
          onClick={() => onToggle(choice)}
        >
          {show(choice)}
        </button>
      ))}
    </div>
  );
}
