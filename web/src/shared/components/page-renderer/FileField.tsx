import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Popover, Typography, Upload, type UploadFile } from 'antd';
import { ControlTypeId, maxFilesOf, readFileRefs, type FileRef } from '@tessera/core/controls/registry';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadStoredFile } from '../../api/files.ts';
import { rootMessages } from '../../ui/feedback.tsx';
import type { ControlFieldProps } from './ControlField.tsx';
import { ImagePreview, StoredFiles, useThumbnails } from './StoredFiles.tsx';
import './renderer-texts.ts';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/**
 * An attachment (1013) or image (1014) control: antd Upload sending each file to the files API
 * (through the renderer's `uploadFile` service), the value the JSON list of what the server
 * answered. Attachments list their files with download links; images show thumbnails with a
 * preview. Disabled (read-only) it shows the files as links and thumbnails (StoredFiles); in a grid cell it is
 * a summary that opens the full field in a popover.
 */
export function FileField(props: ControlFieldProps) {
  const { control, compact, disabled, value } = props;
  const { t } = useTranslation('pageRenderer');
  const image = Number(control.controlType) === ControlTypeId.Image;
  if (compact) {
    const files = readFileRefs(value);
    if (disabled) return <StoredFiles value={value} image={image} size={24} />;
    return (
      <Popover trigger="click" destroyOnHidden content={<div style={{ width: 320 }}><FileUpload {...props} /></div>}>
        <Button type="text" size="small" aria-label={control.title} style={{ height: 'auto', padding: 2 }}>
          {files.length ? <StoredFiles value={value} image={image} size={24} plain /> : <><UploadOutlined /> {t('upload')}</>}
        </Button>
      </Popover>
    );
  }
  if (disabled) return readFileRefs(value).length ? <StoredFiles value={value} image={image} size={96} /> : <Typography.Text type="secondary">{t('noFiles')}</Typography.Text>;
  return <FileUpload {...props} />;
}

function FileUpload({ control, value, onChange, disabled, services, id }: ControlFieldProps) {
  const { t } = useTranslation('pageRenderer');
  const image = Number(control.controlType) === ControlTypeId.Image;
  const files = readFileRefs(value);
  const max = maxFilesOf(control);
  // Several uploads may finish before the next render: each appends to the latest list.
  const latest = useRef<FileRef[]>(files);
  const seen = useRef(value);
  if (seen.current !== value) {
    seen.current = value;
    latest.current = files;
  }
  const commit = (next: FileRef[]) => {
    latest.current = next;
    onChange(JSON.stringify(next));
  };
  const [pending, setPending] = useState<UploadFile[]>([]);
  const [preview, setPreview] = useState<FileRef | null>(null);
  const thumbs = useThumbnails(image ? files : []);
  const upload = services?.uploadFile;
  const accept = image ? IMAGE_TYPES : ((control.extraProperties as { accept?: unknown } | null)?.accept as string | undefined) || undefined;

  const fileList: UploadFile[] = [
    ...files.map((f): UploadFile => ({ uid: f.id, name: f.name, size: f.size, type: f.type, status: 'done', thumbUrl: thumbs[f.id] })),
    ...pending,
  ];
  const full = files.length + pending.filter((p) => p.status === 'uploading').length >= max;
  const find = (uid: string) => files.find((f) => f.id === uid);

  return (
    <>
      <Upload
        id={id}
        listType={image ? 'picture-card' : 'text'}
        fileList={fileList}
        accept={accept}
        multiple={max > 1}
        disabled={disabled || !upload}
        showUploadList={{ showRemoveIcon: !disabled, showDownloadIcon: !image, showPreviewIcon: image }}
        beforeUpload={(file) => {
          if (latest.current.length + pending.filter((p) => p.status === 'uploading').length >= max) {
            rootMessages()?.error(t('tooManyFiles', { max }));
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          const f = file as File & { uid: string };
          setPending((p) => [...p, { uid: f.uid, name: f.name, status: 'uploading', percent: 0 }]);
          upload!(control, f, (percent) => {
            onProgress?.({ percent });
            setPending((p) => p.map((x) => (x.uid === f.uid ? { ...x, percent } : x)));
          }).then(
            (ref) => {
              setPending((p) => p.filter((x) => x.uid !== f.uid));
              commit([...latest.current, ref]);
              onSuccess?.(ref);
            },
            (error: Error) => {
              setPending((p) => p.filter((x) => x.uid !== f.uid));
              rootMessages()?.error(t('uploadFailed', { name: f.name, message: error.message }));
              onError?.(error);
            },
          );
        }}
        onRemove={(item) => {
          if (disabled) return false;
          if (find(item.uid)) commit(latest.current.filter((f) => f.id !== item.uid));
          else setPending((p) => p.filter((x) => x.uid !== item.uid));
          return false;
        }}
        onPreview={(item) => {
          const f = find(item.uid);
          if (!f) return;
          if (image) setPreview(f);
          else void downloadStoredFile(f.id, f.name).catch(() => undefined);
        }}
        onDownload={(item) => {
          const f = find(item.uid);
          if (f) void downloadStoredFile(f.id, f.name).catch(() => undefined);
        }}
        aria-label={control.title}
      >
        {disabled || full ? null : image ? (
          <button type="button" style={{ border: 0, background: 'none', cursor: upload ? 'pointer' : 'not-allowed' }} title={upload ? undefined : t('uploadUnavailable')}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{t('uploadImage')}</div>
          </button>
        ) : (
          <Button icon={<UploadOutlined />} disabled={!upload} title={upload ? undefined : t('uploadUnavailable')}>
            {t('upload')}
          </Button>
        )}
      </Upload>
      <ImagePreview file={preview} onClose={() => setPreview(null)} />
    </>
  );
}
