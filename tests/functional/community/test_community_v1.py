"""v1 post/query and post/{postId} serve discussion and question posts."""

from tests.helpers.catalog import data, error_code

V1 = "/openapi/v1/post"


def test_v1_reads_of_discussion_and_question_posts(signed, com, make_user):
    author = make_user(username="作者")
    discuss = com.discuss(author, title="红石 talk")
    question = com.question(author)
    page = data(signed.get(f"{V1}/query?postType=DISCUSS_POST&keyword=红石"))
    assert [(p["postId"], p["postType"]) for p in page["list"]] == [(discuss, "DISCUSS_POST")]
    questions = data(signed.get(f"{V1}/query?postType=QUESTION_POST&sectionCode=minecraft"))
    assert [(p["postId"], p["postType"]) for p in questions["list"]] == [(question, "QUESTION_POST")]
    assert questions["list"][0]["content"] is None
    post = data(signed.get(f"{V1}/{discuss}?postType=DISCUSS_POST"))
    assert (post["postType"], post["authorName"]) == ("DISCUSS_POST", "作者")
    assert post["content"] == "<p>正文 body</p>"
    shown = data(signed.get(f"{V1}/{question}?postType=QUESTION_POST"))
    assert (shown["postType"], shown["questionStatus"]) == ("QUESTION_POST", "OPEN")
    assert shown["content"] == "<p>问题</p>"
    assert error_code(signed.get(f"{V1}/{question}?postType=DISCUSS_POST"), 404) == 200404


def test_v1_batch_detail_serves_every_post_type(signed, com, make_user):
    author = make_user(username="作者")
    discuss, question = com.discuss(author, title="红石 talk"), com.question(author)
    gone = com.discuss(author, is_delete=True)
    resource = com.post(main_name="Redstone Tech")
    batch = f"{V1}/batch-detail"
    got = data(
        signed.post(
            batch, json={"postIds": [question, discuss, gone, 999999, discuss], "postType": "DISCUSS_POST"}
        )
    )
    assert got[0] is None and got[2] is None and got[3] is None  # a question, a deleted, an unknown id
    assert got[1] == got[4] and (got[1]["postId"], got[1]["postType"], got[1]["title"]) == (
        discuss,
        "DISCUSS_POST",
        "红石 talk",
    )
    assert got[1]["content"] == "<p>正文 body</p>" and got[1]["authorName"] == "作者"
    shown = data(signed.post(batch, json={"postIds": [question], "postType": "QUESTION_POST"}))[0]
    assert (shown["postType"], shown["questionStatus"], shown["content"], shown["tags"]) == (
        "QUESTION_POST",
        "OPEN",
        "<p>问题</p>",
        ["forge", "安装"],
    )
    default = data(signed.post(batch, json={"postIds": [resource]}))[0]
    assert (default["postId"], default["postType"]) == (resource, "RESOURCE_POST")
    server = com.server()
    servers = data(signed.post(batch, json={"postIds": [server, server + 1000], "postType": "SERVER_POST"}))
    assert (servers[0]["postId"], servers[0]["postType"], servers[0]["serverIp"], servers[1]) == (
        server,
        "SERVER_POST",
        "play.example.net",
        None,
    )
    assert error_code(signed.post(batch, json={"postIds": [1], "postType": "USER_MOMENT"}), 400) == 200301
