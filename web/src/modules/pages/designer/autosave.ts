import { useEffect } from 'react';
import type { TPageDefinitionDetail } from '@tessera/core/contracts/pages';
import { mapViews, type TPageDefinition } from '@tessera/core/page-definition';
import { ApiError } from '../../../shared/api/client.ts';
import { memberPath } from '../../../shared/api/validation-errors.ts';
import { savePageDraft } from '../api/page-definitions.ts';
import { useDesigner } from './designer-store.ts';

// Autosave of the draft: a change is saved AUTOSAVE_DELAY_MS after the last edit (one request at a
// time, the newest document wins). Preview, checks and publish call `flushDraft()` first so the
// server sees exactly what is on the canvas. A 409 (another designer saved) stops autosaving until
// the designer reloads: never a silent overwrite.

export const AUTOSAVE_DELAY_MS = 800;

/**
 * The document as saved: rows still being filled in (a field mapping without its source or target)
 * stay on the canvas but are not sent, so a half-typed row never fails the save.
 */
export function forSave(def: TPageDefinition): TPageDefinition {
  const incomplete = (m: { sourceCode?: string; targetCode?: string }) => !m.sourceCode || !m.targetCode;
  const viewControls = mapViews(def.viewControls, (v) => ({
    ...v,
    dataControls: v.dataControls.map((c) =>
      c.extraProperties?.mapFields?.some(incomplete) ? { ...c, extraProperties: { ...c.extraProperties, mapFields: c.extraProperties.mapFields.filter((m) => !incomplete(m)) } } : c,
    ),
  }));
  return { ...def, viewControls };
}

/** A validation error's path (`definition.viewControls.0.dataControls.2.code`) as the codes it names. */
export function describePath(def: TPageDefinition, members: string[] | undefined): string {
  const full = memberPath(members?.[0] ?? '');
  const path = full[0] === 'definition' && full.length > 1 ? full.slice(1) : full;
  const names: string[] = [];
  let cur: unknown = def;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') break;
    cur = (cur as Record<string | number, unknown>)[part];
    const code = cur && typeof cur === 'object' && !Array.isArray(cur) ? (cur as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && code) names.push(code);
  }
  const last = path[path.length - 1];
  return [names.join('.'), typeof last === 'string' ? last : ''].filter(Boolean).join(' · ');
}

let inFlight: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let onSaved: ((detail: TPageDefinitionDetail) => void) | null = null;

/** Saves the current draft if it changed; resolves true when the server holds the canvas's document. */
export async function flushDraft(): Promise<boolean> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  while (inFlight) await inFlight;
  const s = useDesigner.getState();
  if (!s.pageId || !s.concurrencyStamp) return false;
  if (s.saveState === 'conflict') return false;
  if (s.revision === s.savedRevision) return true;
  const revision = s.revision;
  const pageId = s.pageId;
  s.markSaving();
  inFlight = (async () => {
    try {
      const detail = await savePageDraft(pageId, { definition: forSave(s.definition), concurrencyStamp: s.concurrencyStamp! });
      if (useDesigner.getState().pageId !== pageId) return false;
      useDesigner.getState().markSaved(revision, detail.concurrencyStamp);
      onSaved?.(detail);
      return true;
    } catch (err) {
      const e = err as ApiError;
      if (e instanceof ApiError && e.status === 409) useDesigner.getState().markSaveFailed('conflict', e.message);
      else {
        const first = e instanceof ApiError ? e.validationErrors[0] : undefined;
        useDesigner.getState().markSaveFailed('error', first ? `${describePath(s.definition, first.members)}: ${first.message}` : (e as Error).message);
      }
      return false;
    } finally {
      inFlight = null;
    }
  })();
  const ok = await inFlight;
  // Edits made while saving: save them too.
  const after = useDesigner.getState();
  if (ok && after.revision !== after.savedRevision) return flushDraft();
  return ok;
}

/** Saves AUTOSAVE_DELAY_MS after every change; `saved` receives the server's answer (status, stamp). */
export function useAutosave(saved: (detail: TPageDefinitionDetail) => void) {
  useEffect(() => {
    onSaved = saved;
    return () => {
      onSaved = null;
    };
  }, [saved]);
  useEffect(() => {
    const unsubscribe = useDesigner.subscribe((s, prev) => {
      if (s.revision === prev.revision || s.revision === s.savedRevision || s.saveState === 'conflict') return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void flushDraft();
      }, AUTOSAVE_DELAY_MS);
    });
    // Leaving the page (route change, tab close) saves what is pending.
    const beforeUnload = (e: BeforeUnloadEvent) => {
      const s = useDesigner.getState();
      if (s.revision !== s.savedRevision && s.saveState !== 'conflict') {
        void flushDraft();
        e.preventDefault();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      unsubscribe();
      window.removeEventListener('beforeunload', beforeUnload);
      if (timer) {
        clearTimeout(timer);
        timer = null;
        void flushDraft();
      }
    };
  }, []);
}
