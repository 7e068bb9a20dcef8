import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ApiError } from './api/client';

/** A labelled input with its API error beside it (aria-invalid and described by the message). */
export function Field({
  label,
  error,
  hint,
  ...input
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export function SelectField({
  label,
  error,
  options,
  ...select
}: {
  label: string;
  error?: string | undefined;
  options: { value: string; label: string }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** Every message of a failed call, at the top of the form (fields show theirs beside them too). */
/**
 * A set of choices ticked in a fieldset (which the legend names), kept in the order the options
 * come in; none ticked means what the caller says it means (any reason, every store).
 */
export function Ticks({
  legend,
  options,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  options: readonly { value: string; label: string }[];
  chosen: readonly string[];
  onChange: (values: string[]) => void;
  error?: string | undefined;
}) {
  const errorId = useId();
  return (
    <fieldset className="reasons" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="choice">
          <input
            type="checkbox"
            checked={chosen.includes(option.value)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? options.map((one) => one.value).filter((value) => value === option.value || chosen.includes(value))
                  : chosen.filter((value) => value !== option.value),
              )
            }
          />{' '}
          {option.label}
        </label>
      ))}
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </fieldset>
  );
}

export function ErrorSummary({ error }: { error: unknown }) {
  if (!error) return null;
  const messages =
    error instanceof ApiError ? error.messages : [error instanceof Error ? error.message : String(error)];
  return (
    <div className="error-summary" role="alert">
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <>
          <p>{messages.length} things to fix:</p>
          <ul>
            {messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * A screen whose changes need a permission the one signed in lacks: shown whole, every control in
 * it disabled (a disabled fieldset), and a line saying why, rather than buttons the API refuses.
 */
export function ReadOnlyUnless({ allowed, need, children }: { allowed: boolean; need: string; children: ReactNode }) {
  if (allowed) return children;
  return (
    <fieldset disabled className="read-only">
      {children}
      <p className="info">You can read these settings; changing them needs the {need} permission.</p>
    </fieldset>
  );
}

/** What an empty table says: why it is empty and what to do next. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      <div>{children}</div>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

/**
 * A wrapper that tells whether its first child, a row that may scroll sideways (the status tabs on a
 * phone), has more to show before or after what is in view: data-more-before and data-more-after,
 * which the styles draw as a fade and an arrow at that edge. Kept true to the row as it scrolls and
 * as it or its items change size.
 */
export function ScrollHints({ className, children }: { className: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  useEffect(() => {
    const row = box.current?.firstElementChild;
    if (!(row instanceof HTMLElement)) return;
    const measure = () => {
      const before = row.scrollLeft > 1;
      const after = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setMore((was) => (was.before === before && was.after === after ? was : { before, after }));
    };
    measure();
    row.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(row);
    for (const item of row.children) resized.observe(item);
    return () => {
      row.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, []);
  return (
    <div ref={box} className={className} data-more-before={more.before} data-more-after={more.after}>
      {children}
    </div>
  );
}
