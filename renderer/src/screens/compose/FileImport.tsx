import { useRef, useState } from 'react';

/** The prompt files the service reads, by extension. */
export const PROMPT_FILE_TYPES = ['.txt', '.csv', '.jsonl'];

const accepted = (name: string) =>
  PROMPT_FILE_TYPES.some((ext) => name.toLowerCase().endsWith(ext));

/** Open or drop a .txt, .csv or .jsonl file: read here, checked by the service. */
export function FileImport({ onFile }: { onFile(file: { name: string; text: string }): void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const take = async (file: File | undefined) => {
    if (!file) return;
    if (!accepted(file.name)) {
      setProblem(`“${file.name}” is not a .txt, .csv or .jsonl file.`);
      return;
    }
    setProblem(null);
    onFile({ name: file.name, text: await file.text() });
  };

  return (
    <div
      className={`compose-drop${over ? ' compose-drop-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void take(e.dataTransfer.files[0]);
      }}
    >
      <button type="button" className="ghost" onClick={() => input.current?.click()}>
        Open a prompt file…
      </button>
      <span className="muted">or drop a .txt, .csv or .jsonl file here</span>
      <input
        ref={input}
        type="file"
        accept={PROMPT_FILE_TYPES.join(',')}
        aria-label="Prompt file"
        hidden
        onChange={(e) => {
          void take(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {problem && (
        <p className="compose-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
