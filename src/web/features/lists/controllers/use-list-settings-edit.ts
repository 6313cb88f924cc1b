import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { List } from '../../../../api/schemas/list.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { useUpdateList } from '../api/update-list.ts';
import {
  FORM_KEYS,
  LIST_SERVER_FIELDS,
  ListSettingsValues,
  changedFields,
  describeChanges,
  toFormValues,
} from '../model/list-form.ts';
import { SECTIONS, type SectionId } from '../model/sections.ts';
import { NOT_STORED } from '../../../lib/ignored-fields.ts';

/**
 * The list settings page's controller (logic apart from the view, as react-admin's ra-core does):
 * the form, the changes (only the changed fields are sent, spec §1 rule 6) and their count for the
 * save bar and the unsaved-changes guard, the review before saving, the save that puts the
 * server's refusal on its field (form kit) and follows a rename, and copying from another list.
 */
export function useListSettingsEdit(accountId: AccountId, list: List) {
  const initial = useMemo(() => toFormValues(list), [list]);
  const { form, serverErrors } = useKitForm({
    schema: ListSettingsValues,
    defaultValues: initial,
    mode: 'onChange',
    serverFields: LIST_SERVER_FIELDS,
  });
  const updateList = useUpdateList(accountId);
  // Without `list` or `list_settings` (spec §2.6) the settings are shown, not offered for editing.
  const mayEdit = usePermissions().may('lists.update');
  const navigate = useNavigate();
  const [review, setReview] = useState(false);
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

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    void form.handleSubmit(
      () => {
        setSaved(false);
        serverErrors.clear();
        if (dirty) setReview(true);
      },
      (errors) => {
        const first = FORM_KEYS.find((key) => key in errors);
        if (first) focusField(first);
      },
    )(event);

  const save = () => {
    const values = form.getValues();
    const sent = changedFields(initial, values);
    updateList.mutate(
      { name: list.name, changes: sent },
      {
        onSuccess: ({ list: updated, ignored }) => {
          setReview(false);
          const notStored = ignored.filter((name) => name in sent);
          setSaved(notStored.length === 0);
          if (updated.name !== list.name) {
            // A new address: the page for the new name starts afresh (its key changes).
            leaving.current = true;
            void navigate(`../lists/${encodeURIComponent(updated.name)}`, { replace: true });
            return;
          }
          form.reset(toFormValues(updated));
          // Never "saved" for a field the server did not store: it stays changed, and says so.
          for (const name of notStored) {
            const field = LIST_SERVER_FIELDS.find((known) => known === name);
            if (!field) continue;
            form.setValue(field, values[field], { shouldDirty: true });
            form.setError(field, { type: 'server', message: NOT_STORED });
          }
        },
        onError: (error) => {
          setReview(false);
          focusAfterReview.current = serverErrors.place(error);
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

  return {
    form,
    formRef,
    mayEdit,
    onSubmit,
    changeCount,
    dirty,
    saved,
    leaving,
    /** A refusal no field carries: shown in the save bar. */
    formError: serverErrors.formError,
    discard: () => form.reset(initial),
    copyFrom,
    review: {
      open: review,
      close: () => setReview(false),
      lines: review ? describeChanges(initial, changes) : [],
      save,
      saving: updateList.isPending,
    },
  };
}
