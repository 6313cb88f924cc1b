/** The state of a control that saves at once (a checkbox, a select): what the form kit reports. */
export interface InstantSave {
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
}

/**
 * The status beside a control that saves as soon as it changes: "Saving…", then "Saved" (or
 * "Not saved", the error being shown beside it), announced politely to screen readers. Present
 * (empty) before the first change, so the first announcement is heard.
 */
export function SaveStatus({ state, id }: { state: InstantSave; id?: string }) {
  let text = '';
  if (state.isPending) text = 'Saving…';
  else if (state.isSuccess) text = 'Saved';
  else if (state.isError) text = 'Not saved';
  return (
    <span id={id} role="status" aria-live="polite" className="save-status hint">
      {text}
    </span>
  );
}
