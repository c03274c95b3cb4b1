"""community/search over resource, discussion and question posts, and search/suggest."""

import datetime as dt

import pytest

from tests.helpers.catalog import data, error_code
from tests.helpers.community import NOW

V2 = "/openapi/v2/community"


@pytest.fixture()
def corpus(com, make_user):
    author = make_user(username="作者")
    ids = {
        "discuss": com.discuss(author, title="红石电路 Redstone guide", content_md="how to <build> redstone"),
        "question": com.question(
            author,
            title="Forge 安装失败",
            content_md="红石 mod crashes",
            publish_time=NOW + dt.timedelta(hours=1),
            views_count=50,
        ),
        "other": com.discuss(author, title="Unrelated", content_md="nothing", section_code="terraria"),
        "gone": com.discuss(author, title="红石 deleted", is_delete=True),
        "resource": com.post(
            main_name="红石科技 Redstone Tech", introduction="红石 automation", section_code="minecraft"
        ),
    }
    return author, ids


def test_search_ranks_title_hits_first_and_filters(signed, corpus):
    author, ids = corpus
    page = data(signed.get(f"{V2}/search?keyword=红石"))
    found = [(h["entityType"], h["entityId"]) for h in page["list"]]
    assert (
        set(found)
        == {
            ("DISCUSS_POST", ids["discuss"]),
            ("QUESTION_POST", ids["question"]),
            ("RESOURCE_POST", ids["resource"]),
        }
        and page["total"] == 3
    )
    discuss = next(h for h in page["list"] if h["entityType"] == "DISCUSS_POST")
    assert discuss["title"] == "红石电路 Redstone guide" and discuss["authorName"] == "作者"
    assert discuss["snippet"] == "<em>红石</em>电路 Redstone guide"
    assert discuss["publishTime"] == "2026-05-01 12:00:00" and discuss["authorId"] == author
    question = next(h for h in page["list"] if h["entityType"] == "QUESTION_POST")
    assert question["score"] < discuss["score"]  # body-only hit ranks below a title hit
    assert question["snippet"] == "<em>红石</em> mod crashes"
    latin = data(signed.get(f"{V2}/search?keyword=REDSTONE&entityType=DISCUSS_POST"))["list"]
    assert latin[0]["snippet"] == "how to &lt;build&gt; <em>redstone</em>"
    only = data(signed.get(f"{V2}/search?keyword=红石&entityType=QUESTION_POST"))
    assert [h["entityId"] for h in only["list"]] == [ids["question"]]
    assert data(signed.get(f"{V2}/search?keyword=nothing&sectionCode=minecraft"))["total"] == 0
    assert data(signed.get(f"{V2}/search?keyword=nothing&sectionCode=terraria"))["total"] == 1
    second = data(signed.get(f"{V2}/search?keyword=红石&pageSize=2&pageNum=2"))
    assert len(second["list"]) == 1 and second["total"] == 3


@pytest.mark.parametrize("query", ["", "keyword=", "keyword=a&entityType=USER", "keyword=a&pageSize=0"])
def test_search_bad_parameters(signed, query):
    assert error_code(signed.get(f"{V2}/search?{query}"), 400) == 200301


def test_suggest_prefixes_of_titles_and_tags(signed, corpus, com, make_user):
    _, ids = corpus
    com.tag("红石矿 ore")
    com.discuss(make_user(), title="红石 popular", views_count=99)
    assert data(signed.get(f"{V2}/search/suggest?keyword=红石")) == [
        "红石 popular",
        "红石电路 Redstone guide",
        "红石科技 Redstone Tech",
        "红石矿 ore",
    ]
    assert data(signed.get(f"{V2}/search/suggest?keyword=FORGE")) == ["Forge 安装失败"]
    assert data(signed.get(f"{V2}/search/suggest?keyword=%25")) == []
    for n in range(12):
        com.discuss(make_user(), title=f"many {n}")
    assert len(data(signed.get(f"{V2}/search/suggest?keyword=many"))) == 10
    assert error_code(signed.get(f"{V2}/search/suggest"), 400) == 200301


@pytest.fixture()
def texts(com, make_user):
    author = make_user(username="答主")
    question = com.question(author, title="光影 shaders question", section_code="terraria")
    gone = com.question(author, title="old question", is_delete=True)
    ids = {
        "author": author,
        "question": question,
        "answer": com.answer(question, author, content_md="安装 OptiFine 后开启光影, then restart"),
        "moment": com.moment(author, content="<p>我的光影截图 &amp; my OptiFine shots</p>"),
        "hidden": com.moment(author, content="OptiFine deleted", is_delete=True),
    }
    com.answer(gone, author, content_md="OptiFine in a deleted question")
    com.answer(question, author, content_md="OptiFine removed", is_delete=True)
    return ids


def test_search_finds_answers_and_moments(signed, texts):
    page = data(signed.get(f"{V2}/search?keyword=optifine"))
    by_kind = {h["entityType"]: h for h in page["list"]}
    assert page["total"] == 2 and set(by_kind) == {"QUESTION_ANSWER", "USER_MOMENT"}
    answer, moment = by_kind["QUESTION_ANSWER"], by_kind["USER_MOMENT"]
    assert (answer["entityId"], answer["questionId"], answer["title"], answer["sectionCode"]) == (
        texts["answer"],
        texts["question"],
        "光影 shaders question",
        "terraria",
    )
    assert answer["snippet"] == "安装 <em>OptiFine</em> 后开启光影, then restart"
    assert answer["authorName"] == "答主" and answer["publishTime"] == "2026-05-01 12:00:00"
    assert (moment["entityId"], moment["title"], moment["sectionCode"], moment["questionId"]) == (
        texts["moment"],
        None,
        None,
        None,
    )
    assert moment["snippet"] == "我的光影截图 &amp; my <em>OptiFine</em> shots"
    # an answer is in its question's section; moments have none, so a section leaves them out
    assert [
        h["entityType"]
        for h in data(signed.get(f"{V2}/search?keyword=optifine&sectionCode=terraria"))["list"]
    ] == ["QUESTION_ANSWER"]
    assert data(signed.get(f"{V2}/search?keyword=optifine&sectionCode=minecraft"))["total"] == 0
    only = data(signed.get(f"{V2}/search?keyword=optifine&entityType=USER_MOMENT"))["list"]
    assert [h["entityId"] for h in only] == [texts["moment"]]
    # two terms: a word and a Chinese run, both highlighted; the question's title holds 光影 too
    both = data(signed.get(f"{V2}/search?keyword=光影 restart"))["list"]
    assert [(h["entityType"], h["snippet"]) for h in both] == [
        ("QUESTION_ANSWER", "安装 OptiFine 后开启<em>光影</em>, then <em>restart</em>")
    ]
    cjk = {(h["entityType"], h["entityId"]) for h in data(signed.get(f"{V2}/search?keyword=光影"))["list"]}
    assert cjk == {
        ("QUESTION_POST", texts["question"]),
        ("QUESTION_ANSWER", texts["answer"]),
        ("USER_MOMENT", texts["moment"]),
    }


def test_search_partial_words_and_nothing_found(signed, texts):
    partial = data(signed.get(f"{V2}/search?keyword=ptiFi"))  # a part of a word: trigram substring
    assert {h["entityType"] for h in partial["list"]} == {"QUESTION_ANSWER", "USER_MOMENT"}
    empty = data(signed.get(f"{V2}/search?keyword=zzzqqq"))
    assert (empty["total"], empty["list"], empty["emptyFlag"]) == (0, [], True)
    assert data(signed.get(f"{V2}/search?keyword=%20%20"))["total"] == 0  # only spaces


def test_cjk_keyword_finds_resources_by_any_title_abbreviation_or_tag_substring(signed, com):
    """A keyword of CJK runs alone is looked up by its bigram phrases only (no substring scan of
    resource_search_doc on PostgreSQL): every resource whose titles, abbreviation, tags or
    introduction hold it is still found, title hits first."""
    ids = {
        "main": com.post(main_name="超级光影包合集 Shaders"),
        "sub": com.post(sub_name="新光影包"),
        "abbr": com.post(abbr_name="x光影包y"),
        "tag": com.post(tags=["光影包推荐"]),
        "intro": com.post(introduction="介绍一个光影包"),
        "apart": com.post(main_name="光影 包 apart"),
        "dotted": com.post(main_name="シェーダー・パック Pack"),
    }
    page = data(signed.get(f"{V2}/search?keyword=光影包&entityType=RESOURCE_POST"))
    found = [h["entityId"] for h in page["list"]]
    assert page["total"] == 5 and set(found) == {ids[k] for k in ("main", "sub", "abbr", "tag", "intro")}
    assert set(found[:2]) == {ids["main"], ids["sub"]}  # the titles' phrase ranks first
    two = data(signed.get(f"{V2}/search?keyword=合集 光影&entityType=RESOURCE_POST"))["list"]
    assert [h["entityId"] for h in two] == [ids["main"]]
    # a run holding a sign that is no letter (・) keeps the substring alternative
    dotted = data(signed.get(f"{V2}/search?keyword=ダー・パ&entityType=RESOURCE_POST"))["list"]
    assert [h["entityId"] for h in dotted] == [ids["dotted"]]
