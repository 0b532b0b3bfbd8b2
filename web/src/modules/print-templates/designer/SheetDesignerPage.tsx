export default function SheetDesignerPage() { return null; }
