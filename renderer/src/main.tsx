import './zod-config.ts';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('Atelier: #root element missing from index.html');
createRoot(root).render(<App />);
