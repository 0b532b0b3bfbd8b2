import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a screen reader hears while dragging, in the interface language and by the items' names —
 * never dnd-kit's English texts with internal ids ("Draggable item pal:ctl:1002 was dropped…").
 * `nameOf` names a draggable or droppable by its id (null: "this item").
 */
export function useDndAccessibility(nameOf: (id: UniqueIdentifier) => string | null | undefined): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  const { t } = useTranslation('common');
  return useMemo(() => {
    const name = (id: UniqueIdentifier) => nameOf(id) || t('dnd.item');
    return {
      screenReaderInstructions: { draggable: t('dnd.instructions') },
      announcements: {
        onDragStart: ({ active }) => t('dnd.start', { name: name(active.id) }),
        onDragOver: ({ active, over }) => (over ? t('dnd.over', { name: name(active.id), target: name(over.id) }) : t('dnd.outside', { name: name(active.id) })),
        onDragEnd: ({ active, over }) => (over ? t('dnd.end', { name: name(active.id), target: name(over.id) }) : t('dnd.dropped', { name: name(active.id) })),
        onDragCancel: ({ active }) => t('dnd.cancel', { name: name(active.id) }),
      },
    };
  }, [nameOf, t]);
}
