import '../../lists.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { List } from '../../../../../api/schemas/list.ts';
import { Dialog } from '../../../../components/dialog.tsx';
import { ErrorMessage } from '../../../../components/error-message.tsx';
import { UnsavedChangesGuard } from '../../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../../lib/api-client.ts';
import { serverFieldError } from '../../../../lib/server-field-error.ts';
import { useUpdateList } from '../../api/update-list.ts';
import {
  FORM_KEYS,
  ListSettingsValues,
  changedFields,
  describeChanges,
  LIST_SERVER_FIELDS,
  toFormValues,
} from '../../model/list-form.ts';
import { SECTIONS, type SectionId } from '../../model/sections.ts';
import { usePermissions } from '../../../../lib/permissions.ts';
import { CopySettingsDialog } from './copy-settings-dialog.tsx';
import { PostingSection } from './moderation-editor.tsx';
import {
  ArchivesSection,
  ContentSection,
  GeneralSection,
  HeldSection,
  MembersSection,
  SubscriptionsSection,
} from './sections.tsx';
import { TabooSection } from './taboo-section.tsx';

/**
 * Every setting of one list (spec §2.4), in sections. Only the changed fields are sent (spec §1
 * rule 6), after a summary of the changes; leaving with unsaved changes asks first.
 */
export function ListSettingsForm({
  accountId,
  list,
  lists,
}: {
  accountId: AccountId;
  list: List;
  lists: List[];
}) {
  const initial = useMemo(() => toFormValues(list), [list]);
  const form = useForm<ListSettingsValues>({
    resolver: zodResolver(ListSettingsValues),
    defaultValues: initial,
    mode: 'onChange',
  });
  const updateList = useUpdateList(accountId);
  // Without `list` or `list_settings` (spec §2.6) the settings are shown, not offered for editing.
  const mayEdit = usePermissions().may('lists.update');
  const navigate = useNavigate();
  const [review, setReview] = useState(false);
  const [copying, setCopying] = useState(false);
  const [topError, setTopError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);

  const watched = useWatch({ control: form.control }) as ListSettingsValues;
  const changes = changedFields(initial, { ...initial, ...watched });
  const changeCount = Object.keys(changes).length;
  const dirty = changeCount > 0;

  /** Set when the page itself moves on (after a rename): nothing is lost, nothing to ask. */
  const leaving = useRef(false);

  const formRef = useRef<HTMLFormElement>(null);
  /** Not every field registers a ref (line lists, choices): focus by name instead. */
  const focusField = (key: string) =>
    formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(key)}"]`)?.focus();
  /**
   * The field to focus once the review dialog has closed: closing a modal dialog gives the focus
   * back to what opened it, so focusing earlier (even a frame later, under load) is undone.
   */
  const focusAfterReview = useRef<string | null>(null);
  useEffect(() => {
    // The dialog's own effect (a child's) has closed it by now.
    if (review || focusAfterReview.current === null) return;
    focusField(focusAfterReview.current);
    focusAfterReview.current = null;
  });

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) =>
    void form.handleSubmit(
      () => {
        setSaved(false);
        setTopError(null);
        if (dirty) setReview(true);
      },
      (errors) => {
        const first = FORM_KEYS.find((key) => key in errors);
        if (first) focusField(first);
      },
    )(event);

  const save = () => {
    const sent = changedFields(initial, form.getValues());
    updateList.mutate(
      { name: list.name, changes: sent },
      {
        onSuccess: (updated) => {
          setReview(false);
          setSaved(true);
          if (updated.name !== list.name) {
            // A new address: the page for the new name starts afresh (its key changes).
            leaving.current = true;
            void navigate(`../lists/${encodeURIComponent(updated.name)}`, { replace: true });
            return;
          }
          form.reset(toFormValues(updated));
        },
        onError: (error) => {
          setReview(false);
          const onField = serverFieldError(error, LIST_SERVER_FIELDS);
          if (onField) {
            form.setError(onField.field, { type: 'server', message: onField.message });
            focusAfterReview.current = onField.field;
          } else {
            setTopError(error);
          }
        },
      },
    );
  };

  const copyFrom = (source: List, sections: SectionId[]) => {
    for (const section of SECTIONS) {
      if (!sections.includes(section.id)) continue;
      for (const key of section.keys) {
        form.setValue(key, structuredClone(source[key]), {
          shouldDirty: true,
          shouldValidate: true,
        });
      }
    }
    setSaved(false);
  };

  const lines = review ? describeChanges(initial, changes) : [];

  return (
    <FormProvider {...form}>
      <nav aria-label="Settings sections" className="section-links">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <form
        ref={formRef}
        className="stack list-settings"
        onSubmit={onSubmit}
        noValidate
        aria-label="List settings"
      >
        <fieldset className="settings-lock" disabled={!mayEdit}>
          <Section id="general" title="General">
            <GeneralSection />
          </Section>
          <Section id="posting" title="Posting and moderation">
            <PostingSection lists={lists} accountId={accountId} listName={list.name} />
          </Section>
          <Section id="taboo" title="Taboo rules">
            <TabooSection />
          </Section>
          <Section id="content" title="Content">
            <ContentSection />
          </Section>
          <Section id="held" title="Held and rejected messages">
            <HeldSection listName={list.name} />
          </Section>
          <Section id="subscriptions" title="Subscriptions and welcome">
            <SubscriptionsSection />
          </Section>
          <Section id="archives" title="Archives">
            <ArchivesSection />
          </Section>
          <Section id="members" title="Members">
            <MembersSection list={list} />
          </Section>
        </fieldset>

        {!mayEdit ? (
          <p className="hint">
            These settings are shown only: changing them needs the list or list_settings permission.
          </p>
        ) : (
          <div className="save-bar" role="group" aria-label="Save">
            <p className="hint" aria-live="polite">
              {dirty
                ? `${changeCount} unsaved ${changeCount === 1 ? 'change' : 'changes'}`
                : saved
                  ? 'All changes saved.'
                  : 'No unsaved changes.'}
            </p>
            {topError !== null && <ErrorMessage error={topError} />}
            <div className="actions">
              <button
                type="submit"
                className="button primary"
                disabled={!dirty || updateList.isPending}
              >
                Review and save
              </button>
              <button
                type="button"
                className="button"
                disabled={!dirty}
                onClick={() => form.reset(initial)}
              >
                Discard changes
              </button>
              <button type="button" className="button" onClick={() => setCopying(true)}>
                Copy settings from another list…
              </button>
            </div>
          </div>
        )}
      </form>

      <Dialog open={review} onClose={() => setReview(false)} title="Save these changes?">
        <ul className="change-list" aria-label="Changes">
          {lines.map((line) => (
            <li key={line.key}>
              <strong>{line.label}</strong>: {line.before} → {line.after}
            </li>
          ))}
        </ul>
        <div className="actions">
          <button
            type="button"
            className="button primary"
            data-initial-focus
            disabled={updateList.isPending}
            onClick={save}
          >
            {updateList.isPending ? 'Saving…' : 'Save the changes'}
          </button>
          <button type="button" className="button" onClick={() => setReview(false)}>
            Keep editing
          </button>
        </div>
      </Dialog>

      <UnsavedChangesGuard
        dirty={dirty}
        leaving={leaving}
        description={`This list has ${changeCount} unsaved ${changeCount === 1 ? 'change' : 'changes'}. If you leave, they are lost.`}
      />

      <CopySettingsDialog
        open={copying}
        onClose={() => setCopying(false)}
        lists={lists}
        current={list.name}
        onCopy={copyFrom}
      />
    </FormProvider>
  );
}

function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="settings-section">
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}
