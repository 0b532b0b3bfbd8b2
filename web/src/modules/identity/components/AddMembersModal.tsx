import { Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import '../i18n.ts';

/** Picks users (spec selection type 3) to add to a unit or a role. */
export function AddMembersModal({
  open,
  title,
  placeholder,
  onClose,
  onAdd,
}: {
  open: boolean;
  title: string;
  placeholder: string;
  onClose(): void;
  onAdd(userIds: string[]): Promise<unknown>;
}) {
  const { t } = useTranslation('identity');
  const [userIds, setUserIds] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setUserIds([]);
    onClose();
  };
  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      okButtonProps={{ disabled: userIds.length === 0 }}
      confirmLoading={busy}
      okText={t('common:ok')}
      onOk={async () => {
        setBusy(true);
        try {
          await onAdd(userIds);
          close();
        } finally {
          setBusy(false);
        }
      }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('members.title')}>
          <SelectionItemPicker type={3} multiple value={userIds} onChange={(ids) => setUserIds(ids)} placeholder={placeholder} aria-label={placeholder} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
