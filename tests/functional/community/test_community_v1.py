"""v1 post/query and post/{postId} serve discussion and question posts."""

from tests.functional.catalog.conftest import data, error_code

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
