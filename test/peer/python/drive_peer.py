"""Peer check: google-api-python-client, built from the sandbox's own discovery document, against the
sandbox. Prints one JSON object of observations; the mocha test (drive.python.peer.test.ts) asserts them."""
import json
import sys
import time
import urllib.request

import google.oauth2.credentials
from googleapiclient.discovery import build_from_document
from googleapiclient.http import MediaInMemoryUpload

origin, token = sys.argv[1], sys.argv[2]
doc = urllib.request.urlopen(f"{origin}/discovery/v1/apis/store/v2/rest").read().decode("utf-8")
creds = google.oauth2.credentials.Credentials(token)
store = build_from_document(doc, credentials=creds)
out = {}

about = store.about().get(fields="kind,user(emailAddress)").execute()
out["about"] = about["kind"]

data = bytes(i % 251 for i in range(600_000))
media = MediaInMemoryUpload(data, mimetype="application/octet-stream", chunksize=256 * 1024, resumable=True)
request = store.files().insert(body={"title": "python-resumable.bin"}, media_body=media)
response = None
chunks = 0
while response is None:
    status, response = request.next_chunk()
    chunks += 1
out["resumableChunks"] = chunks
out["resumableSize"] = response["fileSize"]
file_id = response["id"]

downloaded = store.files().get_media(fileId=file_id).execute()
out["downloadMatches"] = downloaded == data

listed = store.files().list(q="title = 'python-resumable.bin'", fields="items(id)").execute()
out["listed"] = [f["id"] for f in listed["items"]] == [file_id]

results = {}
def collect(request_id, response, exception):
    results[request_id] = {"ok": exception is None, "status": getattr(getattr(exception, "resp", None), "status", 200)}

batch = store.new_batch_http_request(callback=collect)
batch.add(store.files().get(fileId=file_id, fields="title"), request_id="mine")
batch.add(store.files().get(fileId="missing"), request_id="missing")
batch.execute()
out["batch"] = results

# A POST on the pooled connection after an idle spell longer than Node's default 5 s keep-alive:
# httplib2 reuses the connection without checking it, so a server that closed it means a broken pipe.
time.sleep(6)
made = store.files().insert(body={"title": "after a pause"}).execute()
out["afterPause"] = made["title"]
print(json.dumps(out))
