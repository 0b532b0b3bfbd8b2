import { PaperClipOutlined } from '@ant-design/icons';
import { Modal, Space, Typography } from 'antd';
import { readFileRefs, type FileRef } from '@tessera/core/controls/registry';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadStoredFile, storedImageUrl } from '../../api/files.ts';
import './renderer-texts.ts';

/** Blob URLs of images' thumbnails (the API needs the token an <img src> cannot send), by file id. */
export function useThumbnails(files: readonly FileRef[]): Record<string, string> {
  const [urls, setUrls] = useState<Record<string, string>>({});
  const key = files.map((f) => f.id).join(',');
  useEffect(() => {
    let live = true;
    for (const f of files) {
      storedImageUrl(f.id, 'thumbnail').then(
        (url) => live && setUrls((u) => (u[f.id] === url ? u : { ...u, [f.id]: url })),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return urls;
}

/** Shows an image (fetched with the token) in a dialog. */
export function ImagePreview({ file, onClose }: { file: FileRef | null; onClose(): void }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!file) return;
    let live = true;
    storedImageUrl(file.id, 'image').then((u) => live && setUrl(u), () => undefined);
    return () => {
      live = false;
    };
  }, [file]);
  return (
    <Modal open={!!file} title={file?.name} footer={null} onCancel={onClose} width={720} destroyOnHidden>
      {url ? <img src={url} alt={file?.name} style={{ maxWidth: '100%', display: 'block', margin: '0 auto' }} /> : null}
    </Modal>
  );
}

/**
 * The files of an attachment or image value, read-only: attachments as download links, images as
 * small thumbnails that open a preview. Used by the list, grid cells and read-only forms.
 */
export function StoredFiles({ value, image, size = 32, plain = false }: { value: unknown; image: boolean; size?: number; /** Inside another control (a button): no links or buttons of its own. */ plain?: boolean }) {
  const { t } = useTranslation('pageRenderer');
  const files = readFileRefs(value);
  const thumbs = useThumbnails(image ? files : []);
  const [preview, setPreview] = useState<FileRef | null>(null);
  if (!files.length) return null;
  if (plain) {
    if (!image) return <span>{files.map((f) => f.name).join(', ')}</span>;
    return (
      <Space size={4}>
        {files.map((f) => (
          <span key={f.id} className="tsr-file-thumb" title={f.name} style={{ display: 'inline-block', width: size, height: size, borderRadius: 4, overflow: 'hidden', background: 'var(--ant-color-fill-quaternary)' }}>
            {thumbs[f.id] ? <img src={thumbs[f.id]} alt={f.name} style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} /> : null}
          </span>
        ))}
      </Space>
    );
  }
  if (image) {
    return (
      <Space size={4} wrap onClick={(e) => e.stopPropagation()}>
        {files.map((f) => (
          <button key={f.id} type="button" className="tsr-file-thumb" title={f.name} aria-label={`${t('preview')} ${f.name}`} onClick={() => setPreview(f)}
            style={{ width: size, height: size, padding: 0, border: '1px solid var(--ant-color-border)', borderRadius: 4, background: 'var(--ant-color-fill-quaternary)', cursor: 'zoom-in', overflow: 'hidden' }}>
            {thumbs[f.id] ? <img src={thumbs[f.id]} alt={f.name} style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} /> : null}
          </button>
        ))}
        <ImagePreview file={preview} onClose={() => setPreview(null)} />
      </Space>
    );
  }
  return (
    <Space size={[8, 0]} wrap onClick={(e) => e.stopPropagation()}>
      {files.map((f) => (
        <Typography.Link key={f.id} title={`${t('download')} ${f.name}`} onClick={() => void downloadStoredFile(f.id, f.name).catch(() => undefined)}>
          <PaperClipOutlined /> {f.name}
        </Typography.Link>
      ))}
    </Space>
  );
}
