# Python: google-api-python-client with the Drive v2 description bundled in the library, against
# `api-workbench sandbox --tls` (its printed url and accessToken). Run it with HTTPLIB2_CA_CERTS set to
# the printed caCertificate, so the library's HTTP transport trusts the sandbox's self-signed certificate.
import json
import os

import google.oauth2.credentials
from googleapiclient.discovery import build
from googleapiclient.http import MediaInMemoryUpload

url = os.environ["SANDBOX_URL"]  # https://127.0.0.1:PORT
drive = build(
    "drive",
    "v2",
    credentials=google.oauth2.credentials.Credentials(os.environ["SANDBOX_ACCESS_TOKEN"]),
    client_options={"api_endpoint": f"{url}/drive/v2/"},
    static_discovery=True,
)

small = drive.files().insert(
    body={"title": "hello.txt"},
    media_body=MediaInMemoryUpload(b"hello from Python", mimetype="text/plain"),
).execute()

data = bytes(i % 251 for i in range(600_000))
media = MediaInMemoryUpload(data, mimetype="application/octet-stream", chunksize=256 * 1024, resumable=True)
request = drive.files().insert(body={"title": "big.bin"}, media_body=media)
response = None
while response is None:
    status, response = request.next_chunk()

print(
    json.dumps(
        {
            "small": drive.files().get_media(fileId=small["id"]).execute().decode(),
            "resumableSize": response["fileSize"],
            "resumableMatches": drive.files().get_media(fileId=response["id"]).execute() == data,
        }
    )
)
