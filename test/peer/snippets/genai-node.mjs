// Node: the official @google/genai client against `api-workbench sandbox` (its printed url and apiKey).
import { GoogleGenAI } from '@google/genai';

const ai = new GoogleGenAI({
  apiKey: process.env.SANDBOX_API_KEY,
  httpOptions: { baseUrl: process.env.SANDBOX_URL },
});

const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hello from Node' });
for await (const chunk of stream) process.stdout.write(chunk.text ?? '');

const reply = await ai.models.generateContent({
  model: 'gemini-2.5-flash',
  contents: 'What is the weather in Oslo?',
  config: {
    tools: [
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
      },
    ],
  },
});
console.log('\n' + JSON.stringify(reply.functionCalls));
