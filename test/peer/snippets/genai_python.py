# Python: the official google-genai client against `api-workbench sandbox` (its printed url and apiKey).
import json
import os

from google import genai
from google.genai import types

client = genai.Client(
    api_key=os.environ["SANDBOX_API_KEY"],
    http_options=types.HttpOptions(base_url=os.environ["SANDBOX_URL"]),
)

for chunk in client.models.generate_content_stream(model="gemini-2.5-flash", contents="Hello from Python"):
    print(chunk.text or "", end="")

reply = client.models.generate_content(model="gemini-2.5-flash", contents="Hello again")
print("\n" + reply.text.splitlines()[0])

weather = types.FunctionDeclaration(
    name="get_weather",
    parameters=types.Schema(
        type=types.Type.OBJECT,
        properties={"city": types.Schema(type=types.Type.STRING)},
        required=["city"],
    ),
)
call = client.models.generate_content(
    model="gemini-2.5-flash",
    contents="What is the weather in Oslo?",
    config=types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[weather])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    ),
)
print(json.dumps([{"name": c.name, "args": c.args} for c in call.function_calls]))
