import { InboxOutlined } from '@ant-design/icons';
import { Upload } from 'antd';

/** A drop zone (or click to browse) for one file that the caller reads itself: nothing is uploaded. */
export function FileDragger({ accept, fileName, placeholder, onPick }: { accept: string; fileName?: string; placeholder: string; onPick(file: File): void }) {
  return (
    <Upload.Dragger
      accept={accept}
      multiple={false}
      showUploadList={false}
      beforeUpload={(picked) => {
        onPick(picked);
        return Upload.LIST_IGNORE;
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{fileName ?? placeholder}</p>
    </Upload.Dragger>
  );
}
