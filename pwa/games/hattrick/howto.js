// How to play Hattrick, for players (the server's full rules are seeds/hattrick.md).
export default {
  en: `Collect as many cards of **one colour** as you can and as few of the other two. At the end of a deal each card of your best colour scores +1, every other card you took −1, and every pass −2. Most points after the last deal wins.

## A trick
- The leader plays any card. While the trick shows one colour, the next player may add any card.
- Once two colours are in the trick, you play one of those two colours, or **pass**: show a card of the third colour and lay it down face down (−2 at the end). You must pass if you hold only the third colour.
- Each colour in the trick goes to whoever played its highest card, so one trick may go to two players.
- The winner of the higher card leads next.

## End of the deal
When everyone holds one card the deal ends; that last card is set aside and does not count.

## Tips
- Pick your colour early and take its tricks; play low cards of the others.
- Passing costs 2, but taking a pile of the wrong colour can cost more.`,
  fi: `Kerää mahdollisimman monta **yhden värin** korttia ja mahdollisimman vähän kahta muuta. Jaon lopussa paras värisi antaa jokaisesta kortista +1, jokainen muu ottamasi kortti −1 ja jokainen passaus −2. Eniten pisteitä viimeisen jaon jälkeen kerännyt voittaa.

## Tikki
- Aloittaja pelaa minkä tahansa kortin. Niin kauan kuin tikissä on yhtä väriä, seuraava voi lisätä minkä tahansa kortin.
- Kun tikissä on kaksi väriä, pelaat jompaakumpaa niistä tai **passaat**: näytät kolmannen värin kortin ja laitat sen kuvapuoli alaspäin eteesi (−2 lopussa). Jos sinulla on vain kolmatta väriä, on passattava.
- Kukin tikin väri menee sille, joka pelasi sen suurimman kortin, joten tikki voi mennä kahdelle pelaajalle.
- Suuremman kortin voittaja aloittaa seuraavan tikin.

## Jaon loppu
Kun kaikilla on yksi kortti, jako päättyy; viimeinen kortti jää sivuun eikä lasketa.

## Vinkkejä
- Valitse värisi ajoissa ja ota sen tikit; pelaa muiden värien pieniä kortteja.
- Passaus maksaa 2, mutta väärän värin kasa voi maksaa enemmän.`,
};
