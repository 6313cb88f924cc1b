import '../../lists.css';
import { FormProvider } from 'react-hook-form';
import { useState } from 'react';
import type { List } from '../../../../../api/schemas/list.ts';
import { Dialog } from '../../../../components/dialog.tsx';
import { ErrorMessage } from '../../../../components/error-message.tsx';
import { UnsavedChangesGuard } from '../../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../../lib/api-client.ts';
import { reserveBottomBarSpace } from '../../../../lib/bottom-bar-scroll-padding.ts';
import { usePermissions } from '../../../../lib/permissions.ts';
import { reachableLists } from '../../../../lib/reach.ts';
import { useListSettingsEdit } from '../../controllers/use-list-settings-edit.ts';
import { SECTIONS } from '../../model/sections.ts';
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
 * Every setting of one list (spec §2.4), in sections; the logic is the page's controller
 * (controllers/use-list-settings-edit.ts). Only the changed fields are sent, after a summary of
 * the changes; leaving with unsaved changes asks first.
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
  // Spec §2.6 limit_lists: only the principal's own lists are offered (posting lists, copying).
  const offered = reachableLists(usePermissions(), lists);
  // The refs (the form, `leaving`) are handed on, not read during render.
  const { form, formRef, leaving, review, changeCount, dirty, ...edit } = useListSettingsEdit(
    accountId,
    list,
  );
  const [copying, setCopying] = useState(false);

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
      {/* Not in the save bar: on a phone that bar stays small, over the fields it scrolls by. */}
      {edit.mayEdit && (
        <p>
          <button type="button" className="button" onClick={() => setCopying(true)}>
            Copy settings from another list…
          </button>
        </p>
      )}
      <form
        ref={formRef}
        className="stack list-settings"
        onSubmit={edit.onSubmit}
        noValidate
        aria-label="List settings"
      >
        <fieldset className="settings-lock" disabled={!edit.mayEdit}>
          <Section id="general" title="General">
            <GeneralSection />
          </Section>
          <Section id="posting" title="Posting and moderation">
            <PostingSection lists={offered} accountId={accountId} listName={list.name} />
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

        {!edit.mayEdit ? (
          <p className="hint">
            These settings are shown only: changing them needs the list or list_settings permission.
          </p>
        ) : (
          <div ref={reserveBottomBarSpace} className="save-bar" role="group" aria-label="Save">
            <p className="hint" aria-live="polite">
              {dirty
                ? `${changeCount} unsaved ${changeCount === 1 ? 'change' : 'changes'}`
                : edit.saved
                  ? 'All changes saved.'
                  : 'No unsaved changes.'}
            </p>
            {edit.formError !== null && <ErrorMessage error={edit.formError} />}
            <div className="actions">
              <button type="submit" className="button primary" disabled={!dirty || review.saving}>
                Review and save
              </button>
              <button type="button" className="button" disabled={!dirty} onClick={edit.discard}>
                Discard changes
              </button>
            </div>
          </div>
        )}
      </form>

      <Dialog open={review.open} onClose={review.close} title="Save these changes?">
        <ul className="change-list" aria-label="Changes">
          {review.lines.map((line) => (
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
            disabled={review.saving}
            onClick={review.save}
          >
            {review.saving ? 'Saving…' : 'Save the changes'}
          </button>
          <button type="button" className="button" onClick={review.close}>
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
        lists={offered}
        current={list.name}
        onCopy={edit.copyFrom}
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
